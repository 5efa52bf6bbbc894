// The service guide's production blocks (packages/server/README.md, "Running it in production"), run
// as written: the start on PostgreSQL and Redis, the production start (on that database, with the
// guide's identity-provider settings, which no request here reaches), the backup, restore and start
// on the restored copy, and the one-line start-up failures the guide shows, provoked for real. Only
// the surroundings differ: a database name and a backup directory of this run, a small seeded
// PGlite directory as the one backed up, port 0 for each service (its listening line has the URL).
// Each started service is stopped with SIGTERM, as Ctrl-C would; pnpm's processes go with it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirectoryInUseError } from '../../src/db/single-writer-lock.js';
import { adminDatabaseUrl, databaseHookTimeoutMs, seedPgliteDirectory, uniqueDatabaseName } from '../support/databases.js';
import { processKeyFile, signedToken } from '../support/dev-key.js';
import { lineOf, readmeBlock, repoRoot, runBlock, startBlock } from '../../../../scripts/lib/readme-blocks.mjs';

const run = promisify(execFile);
const guide = 'packages/server/README.md';
/** A step runs pnpm (install and build checks) and starts a service: seconds idle, a minute or more on a saturated machine. */
const stepTimeoutMs = 240_000;
const listening = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"listening"/;

/** What every step's service gets from its surroundings: a free port, JSON logs, the test's key, no Redis unless the line sets it. */
function surroundings(databaseName: string): NodeJS.ProcessEnv {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_FORMAT: 'json',
    DEV_KEY_FILE: processKeyFile,
    RATE_LIMIT_REDIS_PREFIX: `${databaseName}:`,
  };
}

async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

async function searchTotal(url: string, token: string): Promise<number> {
  const answer = await fetch(`${url}/api/v1/invoices/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{"limit": 1}',
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { pagination: { total: number } }).pagination.total;
}

describe("the service guide's production blocks", () => {
  const databaseName = uniqueDatabaseName('readme_production');
  const productionDatabase = `${databaseName}_production`;
  /** The guide's database name `invoices` as a word of a command or the last part of a URL, made this run's. */
  const ours = (text: string): string => text.replace(/(?<=[ /])invoices(?=$|\s)/gm, databaseName);
  let workDir: string;
  let dataDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'readme-production-'));
    dataDir = join(workDir, 'pglite');
    await seedPgliteDirectory(dataDir, { invoices: 40, deliveries: 4, seed: 3 });
  }, 3 * databaseHookTimeoutMs);

  afterAll(async () => {
    for (const name of [databaseName, productionDatabase]) await adminQuery(`drop database if exists "${name}" with (force)`);
    await rm(workDir, { recursive: true, force: true });
  }, databaseHookTimeoutMs);

  it(
    'PostgreSQL and Redis: createdb, then the start on both serves the seeded data with its rate limits in Redis',
    async () => {
      const block = ours(readmeBlock(guide, '### PostgreSQL and Redis', 'createdb'));
      const [createdb = '', start = ''] = block.trim().split('\n');
      expect(createdb).toBe(`createdb -h 127.0.0.1 -U postgres ${databaseName}`);
      await runBlock(createdb);
      const service = await startBlock(start, { ready: listening, env: surroundings(databaseName), timeoutMs: stepTimeoutMs });
      try {
        expect(service.output()).toMatch(/"database":"postgres","rateLimits":"redis"/);
        const url = service.match[1] ?? '';
        expect(await searchTotal(url, await signedToken())).toBeGreaterThan(1000);
        expect((await fetch(`${url}/api/v1/users`, { headers: { Authorization: `Bearer ${await signedToken()}` } })).headers.get('ratelimit')).toMatch(/r=\d+/);
      } finally {
        await service.stop();
      }
    },
    stepTimeoutMs,
  );

  it(
    'production start: install, build, and plain node with NODE_ENV=production on PostgreSQL',
    async () => {
      const block = readmeBlock(guide, '### Production start', 'NODE_ENV=production');
      const [install, build, ...start] = block.trim().split('\n');
      expect(install).toBe('pnpm install --frozen-lockfile');
      await runBlock(install ?? '', { timeoutMs: stepTimeoutMs });
      await runBlock(lineOf(build ?? '', 'pnpm build'), { timeoutMs: stepTimeoutMs });
      // An empty database of its own: the start migrates it (production seeds nothing).
      await adminQuery(`create database "${productionDatabase}"`);
      const startLine = start.join('\n').replace('postgres://app@db.internal:5432/invoices', `postgres://postgres@127.0.0.1:5432/${productionDatabase}`);
      expect(startLine).toContain(`DATABASE_URL=postgres://postgres@127.0.0.1:5432/${productionDatabase} `);
      // A production host has no development key: NODE_ENV=production refuses one that is set.
      const env = { ...surroundings(databaseName), DEV_KEY_FILE: undefined };
      const service = await startBlock(startLine, { ready: listening, env, timeoutMs: stepTimeoutMs });
      try {
        const url = service.match[1] ?? '';
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        // Production verifies tokens against the issuer's key set only: a request without one is refused before any key is fetched.
        const anonymous = await fetch(`${url}/api/v1/users`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="invoice-api"');
      } finally {
        await service.stop();
      }
    },
    stepTimeoutMs,
  );

  it(
    'backups: a backup while nothing runs, the restore into an empty directory, and the service on the restored copy',
    async () => {
      const block = readmeBlock(guide, '### Backups', 'pnpm db:backup');
      const lines = block
        .trim()
        .split('\n')
        .map((line) =>
          line
            .replace(/\s+#\s.*$/, '')
            .replace(/(?<=\s)backups(?=\/|$)/g, join(workDir, 'backups'))
            .replaceAll('.data/pglite-restored', join(workDir, 'pglite-restored')),
        );
      const startLine = lines.pop() ?? '';
      expect(startLine).toBe(`PGLITE_DATA_DIR=${join(workDir, 'pglite-restored')} pnpm start`);
      // The backup reads the service's data directory: PGLITE_DATA_DIR, as the service would.
      const { stdout } = await runBlock(lines.join('\n'), { env: { PGLITE_DATA_DIR: dataDir, DATABASE_URL: '' }, timeoutMs: stepTimeoutMs });
      expect(stdout).toMatch(new RegExp(`Backed up ${dataDir} to ${join(workDir, 'backups')}/invoices-\\d{4}-\\d{2}-\\d{2}\\.tar\\.gz`));
      expect(stdout).toMatch(
        new RegExp(`Restored ${join(workDir, 'backups')}/invoices-\\d{4}-\\d{2}-\\d{2}\\.tar\\.gz into ${join(workDir, 'pglite-restored')}: `),
      );
      const service = await startBlock(startLine, { ready: listening, env: surroundings(databaseName), timeoutMs: stepTimeoutMs });
      try {
        expect(service.output()).toContain('"database":"pglite"');
        // Every invoice backed up is served again: the seeded 40, in the demo data's two accounts.
        const url = service.match[1] ?? '';
        const totals = await Promise.all([1, 2].map(async (account) => searchTotal(url, await signedToken({ accountId: account }))));
        expect(totals[0]! + totals[1]!).toBe(40);
      } finally {
        await service.stop();
      }
    },
    stepTimeoutMs,
  );

  it('the one-writer refusal is the line the service prints for a directory in use', () => {
    const shown = readmeBlock(guide, '### The embedded database has one writer', 'Cannot start:').trim();
    const holder = { pid: 4242, hostname: 'dev-1', startedAt: '2026-11-23T19:31:58.698Z', dataDir: '/repo/.data/pglite', nonce: 'n' };
    const refusal = new DataDirectoryInUseError('in-use', '/repo/.data/pglite', '/repo/.data/pglite.lock', holder);
    // main.ts prints a DataDirectoryInUseError as `Cannot start: <its message>` and exits with 3.
    expect(shown).toBe(`Cannot start: ${refusal.message}`);
  });

  it(
    'start-up failures: each line the guide shows, from the compiled service, with exit code 1',
    async () => {
      const shown = readmeBlock(guide, '### Logs and start-up failures', 'Cannot start: port 3000 is in use').trim().split('\n');
      expect(shown).toHaveLength(3);
      const taken: Server = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const closed: Server = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const takenPort = (taken.address() as { port: number }).port;
      const closedPort = (closed.address() as { port: number }).port;
      await new Promise((resolve) => closed.close(resolve));
      const missing = `${databaseName}_missing`;
      const cases = [
        { env: { PORT: String(takenPort), DATABASE_URL: 'memory:' }, line: shown[0]?.replaceAll('3000', String(takenPort)) },
        {
          env: { DATABASE_URL: `postgres://app:secret@127.0.0.1:${closedPort}/invoices` },
          line: shown[1]?.replaceAll('5999', String(closedPort)),
        },
        { env: { DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${missing}` }, line: shown[2]?.replaceAll('invoices', missing) },
      ];
      try {
        const outcomes = await Promise.all(
          cases.map(({ env }) =>
            run(process.execPath, ['--enable-source-maps', join(repoRoot, 'packages/server/dist/main.js')], {
              cwd: repoRoot,
              env: { ...process.env, ...surroundings(databaseName), NODE_OPTIONS: '', ...env },
              timeout: stepTimeoutMs / 2,
            }).then(
              () => ({ code: 0, stderr: '' }),
              (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
            ),
          ),
        );
        expect(outcomes.map((outcome) => outcome.stderr.trim())).toEqual(cases.map((shownCase) => shownCase.line));
        expect(outcomes.map((outcome) => outcome.code)).toEqual([1, 1, 1]);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
    stepTimeoutMs,
  );
});
