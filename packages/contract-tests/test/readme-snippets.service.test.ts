// The READMEs' blocks that need the service, the Prism mock or the example app, run as written so that
// they cannot go stale. One start of each serves every block here:
// - the service: the root README's quick-start start line itself (`npx --yes pnpm@10.34.9 start`), with
//   the example app's guide's `CORS_ORIGINS` for its page (that guide's "against the service" start);
// - the Prism mock: the client guide's `pnpm mock` line, for its first call;
// - the example app on a mock of its own: the example app's guide's `PORT=... MOCK_PORT=... pnpm example`.
// Then the quick start's token and curl lines, the client guide's first call (saved where that guide
// says), the service guide's token options and paging by cursor, and the example app's dev-server lines
// (in MSW mode, and against the service). Only the addresses differ: free ports instead of 3000, 4010,
// 5173, and a scratch data directory and key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineOf, readmeBlock, repoRoot, runBlock, startBlock, type RunningBlock } from '../../../scripts/lib/readme-blocks.mjs';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { freePort } from '../src/service.js';

const run = promisify(execFile);

interface Claims {
  scope?: string;
  client_id?: string;
  account_id?: number;
  iat: number;
  exp: number;
}

/** The payload of a JWT, unverified (the service's own tests verify tokens). */
function claimsOf(token: string): Claims {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Claims;
}

/** The `import.meta.env` a Vite dev server gives the example app's entry module. */
async function appEnv(appUrl: string): Promise<Record<string, string | boolean>> {
  const main = await (await fetch(`${appUrl}/src/main.ts`)).text();
  const env = /import\.meta\.env = (\{[^}]*\})/.exec(main)?.[1];
  if (env === undefined) throw new Error(`no import.meta.env in ${appUrl}/src/main.ts:\n${main.slice(0, 500)}`);
  return JSON.parse(env) as Record<string, string | boolean>;
}

/** A block's lines without their `# comments`, one command per line (continuations joined). */
function commands(block: string): string {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, ''))
    .join('\n')
    .replace(/\\\n\s*/g, '');
}

const exampleGuide = 'packages/example-app/README.md';
const viteReady = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/;

// Timeouts here are upper bounds that only end a hung run, not waits: the set-up starts the service,
// Prism twice and Vite through pnpm (seconds each when idle, a minute or more on a saturated machine).
describe("the READMEs' snippets", () => {
  const workDir = mkdtempSync(join(tmpdir(), 'readme-snippets-'));
  const keyFile = join(workDir, 'jwt-signing-key.json');
  const env = { DEV_KEY_FILE: keyFile };
  const running: RunningBlock[] = [];
  let serviceUrl = '';
  let mockUrl = '';
  let exampleApp = { url: '', mock: '' };
  let serviceApp = '';
  let mswApp = '';

  /** Starts a block and keeps it to be stopped after the file. */
  async function start(block: string, ready: RegExp, blockEnv: NodeJS.ProcessEnv = {}): Promise<RunningBlock> {
    const started = await startBlock(block, { ready, env: { ...env, ...blockEnv }, timeoutMs: 240_000 });
    running.push(started);
    return started;
  }

  beforeAll(async () => {
    // The token command creates the key that the service then verifies with.
    await runBlock('pnpm --silent token >/dev/null', { env });
    const [servicePort, mockPort, appPort, appMockPort, serviceAppPort, mswAppPort] = await Promise.all(Array.from({ length: 6 }, () => freePort()));

    // npx reads `npm_*` variables as its configuration: those of the pnpm running the suite stay out.
    const outsidePnpm = Object.fromEntries(Object.keys(process.env).flatMap((name) => (/^p?npm_/i.test(name) ? [[name, undefined]] : [])));
    const quickStart = lineOf(readmeBlock('README.md', '## Quick start', 'npx --yes pnpm@10.34.9 start'), 'npx --yes pnpm@10.34.9 start');
    const againstService = readmeBlock(exampleGuide, '## Running it', 'CORS_ORIGINS=');
    const corsOrigins = /^CORS_ORIGINS=(\S+)/.exec(againstService)?.[1];
    expect(corsOrigins).toBe('http://127.0.0.1:5173');
    const service = start(quickStart, /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"listening"/, {
      ...outsidePnpm,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      PGLITE_DATA_DIR: join(workDir, 'pglite'),
      REDIS_URL: '',
      LOG_FORMAT: 'json',
      CORS_ORIGINS: `http://127.0.0.1:${serviceAppPort}`,
    });

    const mockLine = lineOf(readmeBlock('packages/client/README.md', '## Start on the mock: a first call', 'pnpm mock'), 'pnpm mock');
    const mock = start(mockLine, /mock: named examples on (http:\/\/\S+)/, { PORT: String(mockPort) });
    const exampleLine = lineOf(readmeBlock(exampleGuide, '## Running it', 'pnpm example'), 'PORT=5174 MOCK_PORT=4011 pnpm example');
    const example = start(
      exampleLine.replace('PORT=5174', `PORT=${appPort}`).replace('MOCK_PORT=4011', `MOCK_PORT=${appMockPort}`),
      /example: app on\s+(http:\/\/\S+)/,
    );
    const msw = start(`${commands(readmeBlock(exampleGuide, '## Running it', 'VITE_API_MOCK=msw'))} --port ${mswAppPort}`, viteReady);
    // The app against the service: its dev-server line with the service's address, on the port CORS_ORIGINS names.
    const serviceAppLines = commands(againstService).split('\n').slice(1).join('\n');
    const app = start(`${serviceAppLines.replaceAll('http://127.0.0.1:3000', `http://127.0.0.1:${servicePort}`)} --port ${serviceAppPort}`, viteReady);

    serviceUrl = (await service).match[1] ?? '';
    mockUrl = (await mock).match[1] ?? '';
    const exampleOutput = (await example).output();
    exampleApp = { url: (await example).match[1] ?? '', mock: /example: mock on (http:\/\/\S+)/.exec(exampleOutput)?.[1] ?? '' };
    mswApp = (await msw).match[1] ?? '';
    serviceApp = (await app).match[1] ?? '';
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled(running.map((block) => block.stop()));
    rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('quick start: the start line serves the seeded API, its reference and its spec', async () => {
    for (const path of ['/healthz', '/docs', '/openapi.json']) expect((await fetch(`${serviceUrl}${path}`)).status, path).toBe(200);
  });

  it('quick start: a token and the curl search against the service', async () => {
    const script = readmeBlock('README.md', '## Quick start', 'TOKEN=$(').replaceAll('http://127.0.0.1:3000', serviceUrl);
    const { stdout } = await runBlock(script, { env });
    const page = JSON.parse(stdout) as { data: Array<{ status: string }>; pagination: { limit: number } };
    expect(page.pagination.limit).toBe(3);
    expect(page.data.length).toBeGreaterThan(0);
    for (const invoice of page.data) expect(invoice.status).toBe('paid');
  });

  it("the client guide's first call runs where the guide says to save it, against `pnpm mock`", async () => {
    const file = join(repoRoot, 'packages/client/examples', `readme-snippet-${process.pid}.ts`);
    writeFileSync(file, readmeBlock('packages/client/README.md', '## Start on the mock: a first call', 'createApiClient'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
        cwd: repoRoot,
        env: { ...process.env, API_URL: mockUrl, NODE_OPTIONS: '' },
        timeout: 120_000,
      });
      expect(stdout.trim()).toMatch(/^\d+$/);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('every token option does what its comment says', async () => {
    const lines = readmeBlock('packages/server/README.md', '## Tokens', '--ttl -60')
      .split('\n')
      .filter((line) => line.startsWith('pnpm --silent token'));
    expect(lines).toHaveLength(4);
    // The key exists (beforeAll), so the commands only read it and can run side by side; each keeps its place.
    const claims = await Promise.all(lines.map(async (line) => claimsOf((await runBlock(line.replace(/#.*$/, ''), { env })).stdout.trim())));
    const [all, scoped, other, expired] = claims;
    expect(String(all!.scope).split(' ')).toHaveLength(6);
    expect(all).toMatchObject({ client_id: 'dev', account_id: 1 });
    expect(all!.exp - all!.iat).toBe(3600);
    expect(scoped!.scope).toBe('invoices:read deliveries:write');
    expect(other).toMatchObject({ client_id: 'mobile-app', account_id: 2 });
    expect(other!.exp - other!.iat).toBe(300);
    expect(expired!.exp).toBeLessThan(Date.now() / 1000);
  });

  it("the service guide's paging: the second page by the first page's cursor follows it", async () => {
    const script = readmeBlock('packages/server/README.md', '## Paging: cursor and offset, and the worst search', 'CURSOR=');
    const { stdout } = await runBlock(script.replaceAll('http://127.0.0.1:3000', serviceUrl), { env });
    const second = JSON.parse(stdout) as { data: Array<{ id: number }>; pagination: { offset: number; total: number } };
    const token = await mintDevToken({ keyFile });
    const first = (await (
      await fetch(`${serviceUrl}/api/v1/invoices/search`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{"limit": 4}',
      })
    ).json()) as { data: Array<{ id: number }> };
    expect(second.pagination.offset).toBe(2);
    expect(second.data.map((invoice) => invoice.id)).toEqual(first.data.slice(2, 4).map((invoice) => invoice.id));
  });

  it("the example app's `pnpm example`: the app, pointed at its own Prism mock", async () => {
    expect(await (await fetch(exampleApp.url)).text()).toContain('<script type="module" src="/src/main.ts">');
    expect(await (await fetch(`${exampleApp.url}/src/main.ts`)).text()).toContain(exampleApp.mock);
    const users = await fetch(`${exampleApp.mock}/api/v1/users`, { headers: { Authorization: 'Bearer any-token' } });
    expect(users.status).toBe(200);
  });

  it("the example app's MSW mode: the generated handlers' worker script is served, and the page starts it", async () => {
    expect(await appEnv(mswApp)).toMatchObject({ VITE_API_MOCK: 'msw' });
    const worker = await fetch(`${mswApp}/mockServiceWorker.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toContain('javascript');
  });

  it('the example app against the service: its address and a working token, on an origin the service allows', async () => {
    const appConfig = await appEnv(serviceApp);
    expect(appConfig.VITE_API_BASE_URL).toBe(serviceUrl);
    const answer = await fetch(`${serviceUrl}/api/v1/users`, { headers: { Origin: serviceApp, Authorization: `Bearer ${appConfig.VITE_API_TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(serviceApp);
  });
});
