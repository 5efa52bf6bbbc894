// The stateful mock's section of the client's guide (packages/client/README.md), run as written:
// `pnpm mock:stateful` started with the guide's own small-fixture line (only the port replaced by a
// free one), its printed banner, the create / search / reset calls against it, and the example app's
// dev server pointed at it. The block's two other start lines differ only in their options: those are
// read by the command's own parser and must mean what the lines' comments say (a start takes seconds
// of CPU each). A mock of its own: the reset would disturb the shared one.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../scripts/lib/prism.mjs';
import { freePort } from '../src/service.js';
import { pnpmShellFunction } from '../../../scripts/lib/pnpm-command.mjs';
import { startBlock } from '../../../scripts/lib/readme-blocks.mjs';
import { configFor, parseMockArguments } from '../../server/src/mock/cli.js';

const run = promisify(execFile);
const guide = 'packages/client/README.md';
const heading = '## Two mocks: Prism for the spec, the stateful mock for flows';

/** The guide's section on the two mocks, up to the next `## ` heading. */
function mockSection(): string {
  const text = readFileSync(join(repoRoot, guide), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${guide} has no section "${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

function shBlockWith(marker: string): string {
  const found = [...mockSection().matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).find((block) => block.includes(marker));
  if (found === undefined) throw new Error(`${guide}, "${heading}", has no sh block with ${marker}`);
  return found;
}

// `pnpm` in the README is the pinned pnpm: the one running the suite, else npx (pnpm-command.mjs).
const prelude = `set -euo pipefail\n${pnpmShellFunction()}\n`;

// Timeouts here are upper bounds that only end a hung run, not waits: the guide's commands run through pnpm and
// start the stateful mock (seconds each when idle, a minute or more on a saturated machine).
describe("the client guide's stateful mock section", () => {
  const workDir = mkdtempSync(join(tmpdir(), 'readme-stateful-mock-'));
  const env = { ...process.env, DEV_KEY_FILE: join(workDir, 'jwt-signing-key.json'), NODE_OPTIONS: '', LOG_LEVEL: 'warn' };
  let child: ChildProcess | undefined;
  let printed = '';
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    const startLine = shBlockWith('pnpm mock:stateful --invoices 300')
      .split('\n')
      .find((line) => line.startsWith('pnpm mock:stateful --invoices 300'));
    if (startLine === undefined) throw new Error(`${guide}: no \`pnpm mock:stateful --invoices 300\` line`);
    // Its own process group, so that stopping it stops pnpm and the node process it runs.
    child = spawn('bash', ['-c', `${prelude}${startLine.replace(/#.*$/, '').replace('--port 4020', `--port ${port}`)}`], {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
    });
    await new Promise<void>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        printed += chunk.toString('utf8');
        if (/^try:$/m.test(printed)) resolve();
      });
      child?.once('exit', (code) => reject(new Error(`pnpm mock:stateful exited with ${code}:\n${printed}`)));
    });
    url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1] ?? '';
  }, 300_000);

  afterAll(async () => {
    if (child?.pid !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(workDir, { recursive: true, force: true });
  });

  it('prints its address on loopback, the fixture asked for, a token to paste and calls to try', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed).toContain('fixture: seed 20260101, 300 invoices');
    expect(printed).toMatch(/^ {2}export TOKEN=[\w-]+\.[\w-]+\.[\w-]+$/m);
    expect(printed).toContain(`curl -s -X POST ${url}/__mock/reset`);
  });

  it('the other start lines: the options mean what their comments say', () => {
    const lines = shBlockWith('pnpm mock:stateful --invoices 300')
      .split('\n')
      .filter((line) => line.startsWith('pnpm mock:stateful'));
    expect(lines).toHaveLength(3);
    const [defaults, , other] = lines.map((line) => {
      const parsed = parseMockArguments(line.replace(/#.*$/, '').trim().split(/\s+/).slice(2));
      if (parsed === 'help') throw new Error(`${line}: --help`);
      return { line, port: configFor(parsed, {}).port, fixture: parsed.fixture };
    });
    expect(defaults?.line).toMatch(/# http:\/\/127\.0\.0\.1:4010, the demo data: 5,000 invoices, 70 deliveries$/);
    expect(defaults).toMatchObject({ port: 4010, fixture: { seed: 20260101, invoices: 5000, deliveries: 70 } });
    expect(other?.line).toMatch(/--seed 7 --invoices 20000 +# other data, more of it/);
    expect(other).toMatchObject({ port: 4010, fixture: { seed: 7, invoices: 20000, deliveries: 70 } });
  });

  it("the example app's dev server against it: the mock's address and a token it takes, from the app's origin", async () => {
    const block = shBlockWith('VITE_API_BASE_URL=http://127.0.0.1:4010');
    const app = await startBlock(`${block.trim().replaceAll('http://127.0.0.1:4010', url)} --port ${await freePort()}`, {
      ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/,
      env,
      timeoutMs: 120_000,
    });
    try {
      const appUrl = app.match[1] ?? '';
      const main = await (await fetch(`${appUrl}/src/main.ts`)).text();
      const appEnv = JSON.parse(/import\.meta\.env = (\{[^}]*\})/.exec(main)?.[1] ?? '{}') as Record<string, string>;
      expect(appEnv.VITE_API_BASE_URL).toBe(url);
      const answer = await fetch(`${url}/api/v1/users`, { headers: { Origin: appUrl, Authorization: `Bearer ${appEnv.VITE_API_TOKEN}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(appUrl);
    } finally {
      await app.stop();
    }
  });

  it('the create, the search that finds it, and the reset, as written', async () => {
    const script = shBlockWith('/__mock/reset\n').replaceAll('http://127.0.0.1:4010', url);
    const { stdout } = await run('bash', ['-c', `${prelude}${script}`], { cwd: repoRoot, env, timeout: 120_000 });
    // Three JSON answers, one per curl, each on its own line or run together.
    const answers = stdout
      .replace(/}\s*{/g, '}\n{')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answers).toHaveLength(3);
    const [created, found, reset] = answers as [{ invoice: { id: number } }, { data: Array<{ id: number }> }, Record<string, unknown>];
    expect(found.data.map((invoice) => invoice.id)).toEqual([created.invoice.id]);
    expect(reset).toMatchObject({ reset: true, rows_restored: 2 });
    // The printed token works too, and the invoice is gone after the reset.
    const token = /export TOKEN=(\S+)/.exec(printed)?.[1] ?? '';
    const response = await fetch(`${url}/api/v1/invoices/${created.invoice.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(404);
  });
});
