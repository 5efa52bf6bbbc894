// The service guide's "Outgrowing one machine" steps (packages/server/README.md), run as written: the
// backup, the new database and the copy (whose output has the lines of the guide's sample), then a
// service started with the environment of the guide's start line. Only the database's name (unique per run), the backup directory (a temporary one) and the data directory (a small
// seeded one, as PGLITE_DATA_DIR) differ; the start line's `pnpm start` runs the command its script
// ends in (the compiled service; the up-to-date checks before it are the run's global setup's), in a
// process group of its own that the test stops with SIGTERM, so nothing outlives the test.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDatabaseUrl, databaseHookTimeoutMs, seedPgliteDirectory, uniqueDatabaseName } from '../support/databases.js';
import { processKeyFile } from '../support/dev-key.js';
import { pnpmShellFunction } from '../../../../scripts/lib/pnpm-command.mjs';
import { fencedBlocks, startBlock } from '../../../../scripts/lib/readme-blocks.mjs';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const guide = 'packages/server/README.md';

/** The lines under `heading` up to the next heading of its level or above; lines in fenced blocks are no headings. */
function sectionOf(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`${guide} has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  let fenced = false;
  let end = lines.length;
  for (let index = start + 1; index < lines.length && end === lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line) && line.indexOf(' ') <= level) end = index;
  }
  return lines.slice(start, end).join('\n');
}

/** The sh block of the guide's section "Outgrowing one machine" that holds `marker`. */
async function readmeBlock(marker: string): Promise<string> {
  const section = sectionOf(await readFile(join(repoRoot, guide), 'utf8'), '### Outgrowing one machine');
  const found = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').find((block) => block.includes(marker));
  if (found === undefined) throw new Error(`${guide}, "Outgrowing one machine", has no sh block with ${marker}`);
  return found;
}

/** The set-up opens PGlite, seeds it and starts a service (seconds each, a minute or more on a loaded machine). */
const setUpTimeoutMs = 3 * databaseHookTimeoutMs;

describe("the service guide's steps of the move to PostgreSQL", () => {
  let workDir: string;
  let dataDir: string;
  const databaseName = uniqueDatabaseName('readme_move');

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'readme-move-'));
    dataDir = join(workDir, 'pglite');
    await seedPgliteDirectory(dataDir, { invoices: 40, deliveries: 4, seed: 3 });
  }, setUpTimeoutMs);

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminDatabaseUrl });
    await admin.connect();
    try {
      await admin.query(`drop database if exists "${databaseName}" with (force)`);
    } finally {
      await admin.end();
    }
    await rm(workDir, { recursive: true, force: true });
  }, databaseHookTimeoutMs);

  it('back up, create the database, copy, and start on it', async () => {
    const block = await readmeBlock('pnpm db:copy --to');
    const lines = block.split('\n');
    const firstStart = lines.findIndex((line) => line.includes('pnpm start'));
    const ours = (text: string): string => text.replace(/(?<=[ /])invoices(?=$|\s)/gm, databaseName).replace(/(?<=\s)backups(?=\/|$)/gm, `${workDir}/backups`);
    const steps = ours(lines.slice(0, firstStart).join('\n'));
    expect(steps).toContain('pnpm db:backup');
    expect(steps).toContain(`createdb -h 127.0.0.1 -U postgres ${databaseName}`);

    const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${pnpmShellFunction()}\n${steps}`], {
      cwd: repoRoot,
      env: { ...process.env, PGLITE_DATA_DIR: dataDir, DATABASE_URL: '', NODE_OPTIONS: '' },
      timeout: 600_000,
    });
    expect(stdout).toContain(`Backed up ${dataDir} to ${workDir}/backups/before-the-move.tar.gz`);
    expect(stdout).toMatch(/\ninvoices +40 +40 +([0-9a-f]{16}) +\1\n/);
    expect(stdout).toContain('Every table matches: same row count and checksum on both sides.');
    // The guide's sample of that output has the same lines (its counts and checksums are the demo data's).
    const shown = fencedBlocks(await readFile(join(repoRoot, guide), 'utf8')).find(
      (block) => block.heading === '### Outgrowing one machine' && block.firstLine.startsWith('Copied the embedded database in'),
    );
    const printed = stdout.split('\n').map((line) => line.trim().split(/\s+/).join(' '));
    const sample = (shown?.text ?? '').split('\n').map((line) => line.trim().split(/\s+/).join(' '));
    expect(sample[0]).toBe('Copied the embedded database in /repo/.data/pglite to postgres://postgres@127.0.0.1:5432/invoices.');
    expect(printed).toContain(`Copied the embedded database in ${dataDir} to postgres://postgres@127.0.0.1:5432/${databaseName}.`);
    for (const line of sample.slice(1).filter((text) => text !== '...')) {
      const row = /^(\w+) \d+ \d+ [0-9a-f]{16} [0-9a-f]{16}$/.exec(line);
      if (row === null) expect(printed, line).toContain(line);
      else
        expect(
          printed.some((text) => new RegExp(`^${row[1]} (\\d+) \\1 ([0-9a-f]{16}) \\2$`).test(text)),
          line,
        ).toBe(true);
    }

    // The start line's environment, as written (with this run's database), minus its fixed port.
    const startLine = ours(lines[firstStart] ?? '');
    const environment = Object.fromEntries([...startLine.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
    expect(environment).toMatchObject({ DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${databaseName}`, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(startLine).toMatch(/ pnpm start$/);
    const startScript = (JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
    const serviceCommand = startScript.split(' && ').pop() ?? '';
    expect(serviceCommand).toMatch(/^exec node .*packages\/server\/dist\/main\.js$/);
    const service = await startBlock(serviceCommand, {
      ready: /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"listening"/,
      env: {
        ...environment,
        PORT: '0',
        HOST: '127.0.0.1',
        PGLITE_DATA_DIR: '',
        LOG_FORMAT: 'json',
        DEV_KEY_FILE: processKeyFile,
        RATE_LIMIT_REDIS_PREFIX: `${databaseName}:`,
      },
      timeoutMs: 240_000,
    });
    try {
      expect(service.output()).toMatch(/"database":"postgres","rateLimits":"redis"/);
      const health = await fetch(`${service.match[1] ?? ''}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await service.stop();
    }
  }, 900_000);
});
