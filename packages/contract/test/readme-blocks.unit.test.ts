// Every code block of every README is run or checked by a test, or says why not. A block is named by
// its guide, the heading it stands under and the start of its first line; `covered` below names the
// test that runs or checks it (and a text that test holds, by which it finds the block: the heading,
// unless said otherwise). A block no test covers carries `<!-- not run: <why> -->` on the line before
// it. A new block without either, an entry whose block is gone, or an entry whose test no longer
// finds its block fails here. The checks below the list cover the blocks that need nothing but the
// repository's files: layouts name paths that exist, and the commands that run the suite itself (not
// run) name projects, targets, files and options that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, readGuide, readmeFiles, repoRoot } from '../../../scripts/lib/readme-blocks.mjs';

interface Covered {
  guide: string;
  heading: string;
  /** The start of the block's first line. */
  firstLine: string;
  /** The test that runs or checks the block, from the repository root. */
  test: string;
  /** A text the test holds by which it finds the block; default: the heading's text. */
  foundBy?: string;
}

const snippets = 'packages/contract-tests/test/readme-snippets.service.test.ts';
const statefulMock = 'packages/contract-tests/test/readme-stateful-mock.stateful-mock.test.ts';
const production = 'packages/server/test/ops/readme-production.test.ts';
const frontend = 'packages/client/test/readme-frontend.test.ts';
const clientExamples = 'packages/client/test/readme.unit.test.ts';
const thisTest = 'packages/contract/test/readme-blocks.unit.test.ts';

const covered: Covered[] = [
  // The front page.
  { guide: 'README.md', heading: '## Quick start', firstLine: 'npx --yes pnpm@10.34.9 start', test: snippets },
  { guide: 'README.md', heading: '## Quick start', firstLine: 'TOKEN=$(npx pnpm@10.34.9 --silent token)', test: snippets },
  { guide: 'README.md', heading: '## Layout', firstLine: 'openapi/', test: thisTest },
  // The designer's guide.
  {
    guide: 'openapi/README.md',
    heading: '## Deprecation, sunset and reviewed breaks',
    firstLine: 'get:',
    test: 'packages/server/test/http/readme-deprecation.test.ts',
  },
  {
    guide: 'openapi/README.md',
    heading: '## Deprecation, sunset and reviewed breaks',
    firstLine: 'Deprecation: @',
    test: 'packages/server/test/http/readme-deprecation.test.ts',
  },
  {
    guide: 'openapi/README.md',
    heading: '## Deprecation, sunset and reviewed breaks',
    firstLine: 'accepted:',
    test: 'packages/server/test/http/readme-deprecation.test.ts',
  },
  // The service's guide.
  {
    guide: 'packages/server/README.md',
    heading: '## Implement a handler',
    firstLine: '// packages/server/src/operations/invoices.ts',
    test: 'packages/contract/test/readmes.unit.test.ts',
    foundBy: 'every excerpt that names its file is that file verbatim',
  },
  { guide: 'packages/server/README.md', heading: '## Where things are', firstLine: 'src/app.ts', test: thisTest },
  { guide: 'packages/server/README.md', heading: '## Tokens', firstLine: 'pnpm --silent token', test: snippets },
  {
    guide: 'packages/server/README.md',
    heading: '## Paging: cursor and offset, and the worst search',
    firstLine: 'TOKEN=$(pnpm --silent token)',
    test: snippets,
  },
  { guide: 'packages/server/README.md', heading: '### Production start', firstLine: 'pnpm install --frozen-lockfile', test: production },
  {
    guide: 'packages/server/README.md',
    heading: '### The embedded database has one writer',
    firstLine: 'Cannot start: The PGlite data directory',
    test: production,
  },
  { guide: 'packages/server/README.md', heading: '### PostgreSQL and Redis', firstLine: 'createdb -h 127.0.0.1 -U postgres invoices', test: production },
  { guide: 'packages/server/README.md', heading: '### Logs and start-up failures', firstLine: 'Cannot start: port 3000 is in use', test: production },
  {
    guide: 'packages/server/README.md',
    heading: '### Tracing',
    firstLine: 'OTEL_TRACES_EXPORTER=console pnpm start',
    test: 'packages/server/test/telemetry/readme-tracing.test.ts',
  },
  {
    guide: 'packages/server/README.md',
    heading: '### Tracing',
    firstLine: 'OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 pnpm start',
    test: 'packages/server/test/telemetry/readme-tracing.test.ts',
  },
  {
    guide: 'packages/server/README.md',
    heading: '### Tracing',
    firstLine: 'OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 node --enable-source-maps',
    test: 'packages/server/test/telemetry/readme-tracing.test.ts',
  },
  { guide: 'packages/server/README.md', heading: '### Backups', firstLine: 'mkdir -p backups', test: production },
  {
    guide: 'packages/server/README.md',
    heading: '### Outgrowing one machine',
    firstLine: '# 1. A backup first',
    test: 'packages/server/test/ops/readme-move.test.ts',
  },
  {
    guide: 'packages/server/README.md',
    heading: '### Outgrowing one machine',
    firstLine: 'Copied the embedded database in',
    test: 'packages/server/test/ops/readme-move.test.ts',
  },
  // The client's guide.
  { guide: 'packages/client/README.md', heading: '## Start on the mock: a first call', firstLine: 'pnpm mock ', test: snippets },
  {
    guide: 'packages/client/README.md',
    heading: '## Start on the mock: a first call',
    firstLine: "import { createApiClient } from '@invoice-api/client';",
    test: snippets,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## Two mocks: Prism for the spec, the stateful mock for flows',
    firstLine: 'pnpm mock:stateful ',
    test: statefulMock,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## Two mocks: Prism for the spec, the stateful mock for flows',
    firstLine: 'TOKEN=$(pnpm --silent token)',
    test: statefulMock,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## Two mocks: Prism for the spec, the stateful mock for flows',
    firstLine: 'VITE_API_BASE_URL=http://127.0.0.1:4010',
    test: statefulMock,
  },
  // The examples quoted verbatim from packages/client/examples/, each run by a test the comment there names.
  {
    guide: 'packages/client/README.md',
    heading: '## Example (runs against the mock)',
    firstLine: "import { createApiClient, expectOk } from '@invoice-api/client';",
    test: clientExamples,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## Example (runs against the mock)',
    firstLine: "import type { ApiClient, RequestBody } from '@invoice-api/client';",
    test: clientExamples,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## Paging: every item with `for await`',
    firstLine: "import { items, pages, type ApiClient } from '@invoice-api/client';",
    test: clientExamples,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## TanStack Query: `@invoice-api/client/query`',
    firstLine: "import { MutationObserver, type QueryClient } from '@tanstack/query-core';",
    test: clientExamples,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## MSW handlers: the mock inside your tests and your page',
    firstLine: "import { createApiClient } from '@invoice-api/client';",
    test: 'packages/client/test/msw/handlers.test.ts',
    foundBy: 'examples/msw-in-a-test.ts',
  },
  // Compiled (and the commands run) in a frontend project made as the guide says, from the packed client.
  { guide: 'packages/client/README.md', heading: '## Timeouts, expired tokens and checked answers', firstLine: 'import { RequestTimeoutError', test: frontend },
  {
    guide: 'packages/client/README.md',
    heading: '## Deprecation warnings: `onDeprecation`',
    firstLine: "import { createApiClient } from '@invoice-api/client';",
    test: frontend,
  },
  { guide: 'packages/client/README.md', heading: '## Traces: `traceContext`', firstLine: "import * as otel from '@opentelemetry/api';", test: frontend },
  {
    guide: 'packages/client/README.md',
    heading: '## TanStack Query: `@invoice-api/client/query`',
    firstLine: 'npm install ./vendor/invoice-api-client-1.0.0.tgz',
    test: frontend,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## TanStack Query: `@invoice-api/client/query`',
    firstLine: "import { createApiClient } from '@invoice-api/client';",
    test: frontend,
  },
  {
    guide: 'packages/client/README.md',
    heading: '## MSW handlers: the mock inside your tests and your page',
    firstLine: "import { setupWorker } from 'msw/browser';",
    test: frontend,
  },
  { guide: 'packages/client/README.md', heading: '## MSW handlers: the mock inside your tests and your page', firstLine: 'createHandlers({', test: frontend },
  // The same pack and npm install as the guide's lines (the check below holds them together).
  {
    guide: 'packages/client/README.md',
    heading: '## Use it in your own repository',
    firstLine: '# in this repository',
    test: 'packages/client/test/tarball.test.ts',
    foundBy: "'pack', '--pack-destination'",
  },
  { guide: 'packages/client/README.md', heading: '## Use it in your own repository', firstLine: 'import { createApiClient, expectOk }', test: frontend },
  // The benchmarks' guide.
  {
    guide: 'packages/bench/README.md',
    heading: '## Where the CPU goes: `--profile`',
    firstLine: "pnpm bench -- --profile 'client_id ='",
    test: 'packages/bench/test/readme-profile.test.ts',
  },
  // The example app's guide.
  { guide: 'packages/example-app/README.md', heading: '## Running it', firstLine: 'pnpm example', test: snippets },
  {
    guide: 'packages/example-app/README.md',
    heading: '## Running it',
    firstLine: 'VITE_API_MOCK=msw pnpm --filter @invoice-api/example-app dev',
    test: snippets,
  },
  { guide: 'packages/example-app/README.md', heading: '## Running it', firstLine: 'CORS_ORIGINS=http://127.0.0.1:5173 pnpm start', test: snippets },
];

const guides = readmeFiles();
const blocks = guides.flatMap((guide) => fencedBlocks(readGuide(guide)).map((block) => ({ guide, ...block })));
const coverOf = (block: (typeof blocks)[number]) =>
  covered.filter((entry) => entry.guide === block.guide && entry.heading === block.heading && block.firstLine.startsWith(entry.firstLine));
const where = (block: (typeof blocks)[number]) => `${block.guide}:${block.line} (${block.heading}) ${block.firstLine}`;

describe('every block of every README', () => {
  it('finds blocks and headings as written, and a not-run comment only right before a block', () => {
    const found = fencedBlocks(
      '# Top\n\n## Two\n\n<!-- not run: needs a Docker engine -->\n\n```sh\ndocker run x\n```\n\n- a list\n\n  ```\n  indented: kept\n  ```\n',
    );
    expect(found).toEqual([
      { language: 'sh', text: 'docker run x', firstLine: 'docker run x', line: 7, heading: '## Two', notRun: 'needs a Docker engine' },
      { language: '', text: 'indented: kept', firstLine: 'indented: kept', line: 13, heading: '## Two', notRun: undefined },
    ]);
  });

  it.each(guides)('%s: each block is covered by a test, or says why it is not run (and not both)', (guide) => {
    const faults: string[] = [];
    for (const block of blocks.filter((candidate) => candidate.guide === guide)) {
      const entries = coverOf(block);
      if (block.notRun !== undefined && entries.length > 0) faults.push(`${where(block)}: marked not run, but ${entries[0]?.test} covers it`);
      else if (block.notRun === '') faults.push(`${where(block)}: "not run" without a reason`);
      else if (block.notRun === undefined && entries.length === 0)
        faults.push(`${where(block)}: no test runs or checks it: add one (and an entry here), or mark it <!-- not run: <why> -->`);
      else if (entries.length > 1) faults.push(`${where(block)}: listed ${entries.length} times`);
    }
    expect(faults).toEqual([]);
  });

  it('lists no block that is gone, and names tests that exist and find their block', () => {
    const faults: string[] = [];
    for (const entry of covered) {
      const matching = blocks.filter((block) => block.guide === entry.guide && block.heading === entry.heading && block.firstLine.startsWith(entry.firstLine));
      if (matching.length !== 1) faults.push(`${entry.guide} (${entry.heading}) ${entry.firstLine}: ${matching.length} blocks, expected one`);
      if (!existsSync(join(repoRoot, entry.test))) {
        faults.push(`${entry.test}: no such test`);
        continue;
      }
      const foundBy = entry.foundBy ?? entry.heading.replace(/^#+ /, '');
      if (!readFileSync(join(repoRoot, entry.test), 'utf8').includes(foundBy)) faults.push(`${entry.test} does not hold ${JSON.stringify(foundBy)}`);
    }
    expect(faults).toEqual([]);
  });
});

/** The block of `guide` under `heading` whose first line starts with `firstLine`. */
function blockOf(guide: string, heading: string, firstLine: string): string {
  const found = blocks.find((block) => block.guide === guide && block.heading === heading && block.firstLine.startsWith(firstLine));
  if (found === undefined) throw new Error(`${guide} (${heading}): no block starting ${firstLine}`);
  return found.text;
}

describe('the blocks that need only the repository', () => {
  it.each([
    ['README.md', '## Layout', 'openapi/', ''],
    ['packages/server/README.md', '## Where things are', 'src/app.ts', 'packages/server/'],
  ])('%s (%s): every path of the layout exists', (guide, heading, firstLine, base) => {
    const paths = blockOf(guide, heading, firstLine)
      .split('\n')
      .map((line) => /^(\S+)\s/.exec(line)?.[1])
      .filter((path): path is string => path !== undefined);
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((path) => !existsSync(join(repoRoot, base, path)))).toEqual([]);
  });

  // `npx vitest run --project NAME [file]`, in blocks and code spans: the project exists, and so does a file it names.
  const projects = new Map(
    readdirSync(join(repoRoot, 'packages')).flatMap((dir) => {
      const config = join(repoRoot, 'packages', dir, 'vitest.config.ts');
      const manifest = join(repoRoot, 'packages', dir, 'package.json');
      if (!existsSync(manifest)) return [];
      const named = existsSync(config) ? /\bname: '([^']+)'/.exec(readFileSync(config, 'utf8'))?.[1] : undefined;
      return [[named ?? (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name, join('packages', dir)] as const];
    }),
  );
  it.each(guides)('%s: every `vitest run --project` names a project, and the files and targets it names exist', (guide) => {
    const faults: string[] = [];
    const text = readGuide(guide);
    for (const match of text.matchAll(/(?:CONTRACT_TARGET=([\w,-]+) )?npx vitest run --project ([@\w/-]+)((?: [\w./-]+)*)/g)) {
      const [command, targets, project = '', rest = ''] = match;
      const dir = projects.get(project);
      if (dir === undefined) {
        faults.push(`${command}: no vitest project ${project}`);
        continue;
      }
      for (const file of rest
        .trim()
        .split(/\s+/)
        .filter((word) => word.endsWith('.test.ts')))
        if (!existsSync(join(repoRoot, dir, file))) faults.push(`${command}: no file ${join(dir, file)}`);
      const known = ['mock', 'proxy', 'service', 'stateful-mock'];
      expect(readFileSync(join(repoRoot, 'packages/contract-tests/src/targets.ts'), 'utf8')).toContain(`['${known.join("', '")}']`);
      for (const target of targets?.split(',') ?? []) if (!known.includes(target)) faults.push(`${command}: no contract target ${target}`);
    }
    expect(faults).toEqual([]);
  });

  it("packages/client/README.md (own repository): the lines are the pack and the install tarball.test.ts runs, of this version's tarball", () => {
    const block = blockOf('packages/client/README.md', '## Use it in your own repository', '# in this repository');
    const version = (JSON.parse(readFileSync(join(repoRoot, 'packages/client/package.json'), 'utf8')) as { version: string }).version;
    expect(block).toMatch(/^pnpm --filter @invoice-api\/client pack --pack-destination \.\.\/frontend\/vendor$/m);
    expect(block).toMatch(new RegExp(`^npm install \\./vendor/invoice-api-client-${version.replaceAll('.', '\\.')}\\.tgz `, 'm'));
    const tarballTest = readFileSync(join(repoRoot, 'packages/client/test/tarball.test.ts'), 'utf8');
    expect(tarballTest).toContain("'--filter', workspaceManifest.name, 'pack', '--pack-destination'");
    expect(tarballTest).toMatch(/'npm',\s*\[\s*'install',/);
    expect(blockOf('packages/client/README.md', '## TanStack Query: `@invoice-api/client/query`', 'npm install')).toContain(
      `./vendor/invoice-api-client-${version}.tgz`,
    );
  });

  it("packages/bench/README.md (--compare): the command's options are options of pnpm bench", () => {
    const block = blockOf('packages/bench/README.md', '## Before and after a change: `--compare`', 'git worktree add');
    const options = [...block.matchAll(/ (--[a-z-]+)/g)].map((match) => match[1]).filter((option) => option !== '--offline');
    expect(options).toEqual(expect.arrayContaining(['--compare', '--full', '--searches', '--warm-up', '--baseline-database', '--rounds', '--seconds']));
    const cli = readFileSync(join(repoRoot, 'packages/bench/src/cli.ts'), 'utf8');
    expect(options.filter((option) => !cli.includes(`argument === '${option}'`))).toEqual([]);
  });

  it.each([
    ['--duties', '## What each duty costs: `--duties`'],
    ['--gc', '## What the garbage collector costs: `--gc`'],
  ])("packages/bench/README.md (%s): the command's options are options of pnpm bench", (mode, heading) => {
    const block = blockOf('packages/bench/README.md', heading, 'pnpm bench');
    const options = [...block.matchAll(/ (--[a-z-]+)/g)].map((match) => match[1]);
    expect(options).toEqual(expect.arrayContaining([mode, '--rounds']));
    const cli = readFileSync(join(repoRoot, 'packages/bench/src/cli.ts'), 'utf8');
    expect(options.filter((option) => option !== '--' && !cli.includes(`argument === '${option}'`))).toEqual([]);
  });
});
