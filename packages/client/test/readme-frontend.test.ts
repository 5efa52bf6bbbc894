// The client's guide as a frontend team follows it: every TypeScript block the guide gives a frontend
// (timeouts and token refresh, onDeprecation, traceContext, the React query, the browser MSW start, the
// overrides, the own-repository example) type-checked strictly, each as a file of a scratch project in
// this package, against the client's own sources (`@invoice-api/client` and its subpaths mapped to
// them), @tanstack/react-query and React's types. A block that uses a name of the app's own
// (`session`, `telemetry`, `baseUrl`, `token`) gets that name declared, and `import.meta.env` is typed
// as Vite types it. What the comments of the React and onDeprecation blocks say of their types is
// checked too, and two of the guide's claims run: the search rules the own-repository example comments
// on, and a client made before MSW's `server.listen()` answered by MSW.
//
// The errors asked for are those of the blocks' files (type-check-project.ts), as a frontend's build
// shows them: the client's sources they import are read for their types, and are checked themselves
// by the package's typecheck and, with the DOM and without Node's types, by its build.
//
// The guide's TanStack install line runs with the client left out (the sources stand in for the
// tarball, which tarball.test.ts packs and installs as the guide's own-repository lines do) and
// React Query pinned to the version of the workspace's @tanstack/query-core, beside what a React project
// with TypeScript has already (react, @types/react), from the npm registry (`--prefer-offline`: the
// npm cache serves repeated runs). msw and @opentelemetry/api are this package's own.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { fencedBlocks, readGuide, runBlock } from '../../../scripts/lib/readme-blocks.mjs';
import { createApiClient } from '../src/index.js';
import { searchRules } from '../src/contract.js';
import { createHandlers } from '../src/msw/index.js';
import { typeCheckProject } from './type-check-project.js';

const guide = 'packages/client/README.md';
const clientManifest = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const queryCoreVersion = clientManifest.devDependencies['@tanstack/query-core'] ?? '';

/** The block of the guide under `heading` whose first line starts with `firstLine`. */
function block(heading: string, firstLine: string): string {
  const found = fencedBlocks(readGuide(guide)).find((candidate) => candidate.heading === heading && candidate.firstLine.startsWith(firstLine));
  if (found === undefined) throw new Error(`${guide} (${heading}): no block starting ${firstLine}`);
  return found.text;
}

// What Vite's `vite/client` types declare for `import.meta.env`, which these blocks read.
const viteEnv = `interface ImportMetaEnv {
  readonly [key: string]: any;
  readonly BASE_URL: string;
  readonly MODE: string;
  readonly DEV: boolean;
  readonly PROD: boolean;
  readonly SSR: boolean;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
`;

const appNames = {
  session: 'declare const session: { accessToken: string; refresh(): Promise<boolean> };\n',
  telemetry: 'declare const telemetry: { track(event: string, data: unknown): void };\n',
  connection: 'declare const baseUrl: string;\ndeclare const token: string;\n',
};

/** Each TypeScript block a frontend copies, as a file of the scratch project: its name, the names it assumes, the block. */
const snippets: Array<[file: string, prelude: string, heading: string, firstLine: string]> = [
  ['timeouts.ts', appNames.session, '## Timeouts, expired tokens and checked answers', 'import { RequestTimeoutError'],
  [
    'deprecation.ts',
    appNames.connection + appNames.telemetry,
    '## Deprecation warnings: `onDeprecation`',
    "import { createApiClient } from '@invoice-api/client';",
  ],
  ['traces.ts', appNames.connection, '## Traces: `traceContext`', "import * as otel from '@opentelemetry/api';"],
  ['invoice-number.tsx', '', '## TanStack Query: `@invoice-api/client/query`', "import { createApiClient } from '@invoice-api/client';"],
  ['msw-browser.ts', '', '## MSW handlers: the mock inside your tests and your page', "import { setupWorker } from 'msw/browser';"],
  [
    'msw-overrides.ts',
    "import { createHandlers } from '@invoice-api/client/msw';\n",
    '## MSW handlers: the mock inside your tests and your page',
    'createHandlers({',
  ],
  ['own-repository.ts', appNames.session, '## Use it in your own repository', 'import { createApiClient, expectOk }'],
];

// What the React block's comment says the query's data and error are.
const queryTypes = `import { createApiClient, type NetworkError } from '@invoice-api/client';
import type { Invoice } from '@invoice-api/client/contract';
import { createQueryOptions, type ApiCallError } from '@invoice-api/client/query';
import { useQuery } from '@tanstack/react-query';

const q = createQueryOptions(createApiClient({ baseUrl: 'http://127.0.0.1:4010', token: 'any-token' }));
export function useInvoice() {
  return useQuery(q.getInvoiceOptions({ path: { invoice_id: 7 } }));
}
type Result = ReturnType<typeof useInvoice>;
export const data: { invoice: Invoice } | undefined = {} as Result['data'];
export const shown: Result['data'] = {} as { invoice: Invoice } | undefined;
export const apiError: Result['error'] = {} as ApiCallError<'getInvoice'>;
export const networkError: Result['error'] = {} as NetworkError;
export const none: Result['error'] = null;
`;

// What the onDeprecation block's comment says a warning holds: exactly these members.
const warningKeys = `import type { DeprecationWarning } from '@invoice-api/client';

type Shown = 'operationId' | 'source' | 'deprecatedSince' | 'sunset' | 'link' | 'message';
export const shown: Shown = {} as keyof DeprecationWarning;
export const all: keyof DeprecationWarning = {} as Shown;
export const source: DeprecationWarning['source'] = {} as 'spec' | 'header';
`;

describe("the client's guide, in a frontend project", () => {
  const clientDir = fileURLToPath(new URL('..', import.meta.url));
  // Inside this package, so that the blocks' imports of msw and @opentelemetry/api find this package's own.
  const frontend = mkdtempSync(join(clientDir, '.readme-frontend-'));
  // npm reads `npm_*` variables as its configuration: those of the pnpm running the suite stay out.
  const npmEnv: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.keys(process.env).flatMap((name) => (/^p?npm_/i.test(name) ? [[name, undefined]] : []))),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'error',
    npm_config_update_notifier: 'false',
  };

  beforeAll(async () => {
    mkdirSync(join(frontend, 'src'), { recursive: true });
    // A React project with TypeScript: react and its types are there already.
    const dependencies = { react: '19.3.1', '@types/react': '19.3.3' };
    writeFileSync(join(frontend, 'package.json'), `${JSON.stringify({ name: 'frontend', private: true, type: 'module', dependencies }, null, 2)}\n`);
    const tanstack = block('## TanStack Query: `@invoice-api/client/query`', 'npm install');
    expect(tanstack.trim()).toBe('npm install ./vendor/invoice-api-client-1.0.0.tgz @tanstack/react-query');
    const line = tanstack.replace('./vendor/invoice-api-client-1.0.0.tgz ', '').replace('@tanstack/react-query', `@tanstack/react-query@${queryCoreVersion}`);
    await runBlock(line, { cwd: frontend, env: npmEnv, timeoutMs: 300_000 });
  }, 360_000);

  afterAll(() => rmSync(frontend, { recursive: true, force: true }));

  it('type-checks every block a frontend copies, strictly, with React Query and React', () => {
    writeFileSync(join(frontend, 'src/vite-env.d.ts'), viteEnv);
    for (const [file, prelude, heading, firstLine] of snippets)
      writeFileSync(join(frontend, 'src', file), `${prelude}${block(heading, firstLine)}\nexport {};\n`);
    writeFileSync(join(frontend, 'src/query-types.ts'), queryTypes);
    writeFileSync(join(frontend, 'src/warning-keys.ts'), warningKeys);
    // `@invoice-api/client` and its subpaths: the sources its package.json exports (the tarball's are their compiled form).
    const exportsMap = (JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string } | string> }).exports;
    const paths = Object.fromEntries(
      Object.entries(exportsMap).flatMap(([subpath, target]) =>
        typeof target === 'string' ? [] : [[`@invoice-api/client${subpath.slice(1)}`, [join(clientDir, target.types ?? '')]]],
      ),
    );
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: 'ES2023',
        module: 'esnext',
        moduleResolution: 'bundler',
        // As Vite resolves for the browser: the contract's browser face, without its Node-only spec loader.
        customConditions: ['browser'],
        jsx: 'react-jsx',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        noEmit: true,
        skipLibCheck: true,
        paths,
      },
      include: ['src'],
    };
    writeFileSync(join(frontend, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const appSources = join(frontend, 'src/');
    const { errors, checkedFiles } = typeCheckProject(join(frontend, 'tsconfig.json'), (fileName) => fileName.startsWith(appSources));
    expect(errors).toBe('');
    // Every block's file, and the two written for the comments' claims (vite-env.d.ts is a declaration file: skipLibCheck).
    expect(checkedFiles.map((file) => relative(appSources, file)).sort()).toEqual(
      [...snippets.map(([file]) => file), 'query-types.ts', 'warning-keys.ts'].sort(),
    );
  }, 120_000);

  it("runs the own-repository example's comment: the status field's operators, from the spec", () => {
    const comment = /searchRules\.fields\.status\.operators; \/\/ (\[[^\]]*\])/.exec(
      block('## Use it in your own repository', 'import { createApiClient, expectOk }'),
    )?.[1];
    expect(searchRules.fields.status.operators).toEqual(JSON.parse((comment ?? '').replaceAll("'", '"')));
  });

  it('a client made before server.listen() is answered by MSW: the client looks fetch up on every call', async () => {
    const baseUrl = 'https://api.example.com';
    const early = createApiClient({ baseUrl, token: 'any-token', retry: false });
    const server = setupServer(...createHandlers({ baseUrl }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await early.searchInvoices({})).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
