// pnpm db:backup, db:restore and db:copy as an operator runs them (child processes, real files, real
// PostgreSQL): a backup taken from a running service, which keeps serving; one-line refusals of bad
// input; a copy killed half-way that leaves PostgreSQL marked incomplete (and refused by the service)
// and a rerun that finishes it; a restore into an empty directory holding every row, sequence and
// idempotency key the service had written, and an attached file's bytes as uploaded.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { findIncompleteCopy } from '../../src/db/copy-marker.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { startService, type RunningService } from '../../src/service.js';
import { createHandlers } from '../../src/operations/index.js';
import { backup } from '../../src/ops/backup.js';
import { copy } from '../../src/ops/copy.js';
import { restore } from '../../src/ops/restore.js';
import { createPostgresDatabase, databaseHookTimeoutMs, seedPgliteDirectory, type ScratchPostgres } from '../support/databases.js';
import { startTestService, testKeyFile, token } from '../http/support/service.js';
import { compiledCommands } from '../support/compiled-service.js';
import { contents, sequences } from '../support/database-contents.js';

/** Each command is a new Node process that opens PGlite: a few seconds each, far more on a loaded machine. */
const commandTestTimeoutMs = 240_000;

/** A small PDF attached before the backup. */
const attachedPdf = new Uint8Array(Buffer.from('%PDF-1.4\n% kept in the backup\ntrailer\n<<>>\n%%EOF\n', 'latin1'));

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

interface CommandRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pnpm db:<name>` the way the root package.json does (node on the compiled command). `killOn`: the
 * process is sent SIGKILL as soon as a line of its stderr matches.
 */
function run(name: 'backup' | 'restore' | 'copy', args: string[], killOn?: RegExp): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', compiledCommands[name], ...args], {
      cwd: repoRoot,
      env: { ...process.env, PGLITE_DATA_DIR: '', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (killOn?.test(stderr)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The set-up opens PGlite, seeds it and starts a service (seconds each, a minute or more on a loaded machine). */
const setUpTimeoutMs = 3 * databaseHookTimeoutMs;

describe('the database commands', () => {
  let workDir: string;
  let dataDir: string;
  let service: RunningService | undefined;
  let scratch: ScratchPostgres;
  let bearer: string;
  const key = randomUUID();
  let firstAnswer: { status: number; body: string };
  const invoiceBody = { client_id: 1, amount: 12.5, currency: 'CHF', due_date: '2026-12-31', description: `kept in the backup ${key}` };
  const createInvoice = (url: string) =>
    fetch(`${url}/api/v1/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(invoiceBody),
    });

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'db-commands-'));
    dataDir = join(workDir, 'pglite');
    await seedPgliteDirectory(dataDir, { invoices: 80, deliveries: 8, seed: 5 });
    const config = loadConfig({ PORT: '0', PGLITE_DATA_DIR: dataDir, SEED_DEMO_DATA: 'off', DEV_KEY_FILE: testKeyFile, LOG_LEVEL: 'silent' });
    service = await startService(config, pino({ level: 'silent' }));
    bearer = await token({ accountId: 1, clientId: 'backups' });
    const answer = await createInvoice(service.url);
    firstAnswer = { status: answer.status, body: await answer.text() };
    // A file attached to it: the backup, the copy and the restore carry its bytes.
    const form = new FormData();
    form.append('file', new File([attachedPdf], 'kept.pdf', { type: 'application/pdf' }));
    const invoiceId = (JSON.parse(firstAnswer.body) as { invoice: { id: number } }).invoice.id;
    const attached = await fetch(`${service.url}/api/v1/invoices/${invoiceId}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}` },
      body: form,
    });
    expect(attached.status).toBe(201);
    scratch = await createPostgresDatabase('commands');
  }, setUpTimeoutMs);

  afterAll(async () => {
    await service?.stop();
    await scratch?.drop();
    await rm(workDir, { recursive: true, force: true });
  }, databaseHookTimeoutMs);

  it(
    'db:backup takes a snapshot from the running service, which keeps serving',
    async () => {
      expect(firstAnswer.status).toBe(201);
      const file = join(workDir, 'running.tar.gz');
      const backup = await run('backup', [file, '--data-dir', dataDir]);
      expect(backup.stderr).toContain(`backup: asking the service running on ${dataDir} for a snapshot`);
      expect(backup.stdout).toBe(`Backed up ${dataDir} to ${file} (${backup.stdout.match(/\(([\d.]+ MB)/)?.[1]}, snapshot taken by the running service).\n`);
      expect(backup.code).toBe(0);
      expect((await readdir(workDir)).filter((name) => name.startsWith('running.tar.gz'))).toEqual(['running.tar.gz']);
      const users = await fetch(`${service?.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(users.status).toBe(200);
    },
    commandTestTimeoutMs,
  );

  it(
    'refuses bad input with one line and exit code 1, writing nothing',
    async () => {
      // The refusals are checked in-process (a process each would cost seconds); one is run as a command,
      // for the form of the line and the exit code.
      const cases: Array<[(argv: string[]) => Promise<void>, string[], RegExp]> = [
        [backup, [join(workDir, 'running.tar.gz'), '--data-dir', dataDir], /already exists; name a new file/],
        [backup, ['--bogus'], /^Unknown option '--bogus'; --help shows the usage\.$/],
        [backup, [join(workDir, 'nowhere', 'file.tar.gz'), '--data-dir', dataDir], /the directory .*nowhere does not exist/],
        [restore, [join(workDir, 'running.tar.gz'), '--data-dir', dataDir], /is not empty; db:restore fills only an empty or absent directory/],
        [restore, [join(workDir, 'absent.tar.gz'), '--data-dir', join(workDir, 'new')], /absent\.tar\.gz does not exist/],
        [copy, ['--to', 'mysql://somewhere/db', '--data-dir', dataDir], /must start with postgres:\/\/ or postgresql:\/\//],
        [copy, ['--data-dir', dataDir], /give either --to or --from/],
      ];
      const before = (await readdir(workDir)).sort();
      for (const [command, args, message] of cases) {
        await expect(command(args), args.join(' ')).rejects.toThrow(message);
      }
      const outcome = await run('restore', [join(workDir, 'running.tar.gz'), '--data-dir', dataDir]);
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr).toBe(
        `db:restore: ${dataDir} is not empty; db:restore fills only an empty or absent directory. Move it aside (or pass another --data-dir), then restore.\n`,
      );
      expect((await readdir(workDir)).sort()).toEqual(before);
    },
    commandTestTimeoutMs,
  );

  it(
    'db:copy killed half-way leaves PostgreSQL marked incomplete, which the service refuses; running it again finishes',
    async () => {
      await service?.stop();
      service = undefined;
      const killed = await run('copy', ['--to', scratch.url, '--data-dir', dataDir], /copy: \w+: \d+ of \d+ rows/);
      expect(killed.signal).toBe('SIGKILL');
      const target = await openDatabase({ url: scratch.url, poolSize: 1 });
      try {
        expect(await findIncompleteCopy(target.db)).toMatchObject({ source: `the embedded database in ${dataDir}` });
        const config = loadConfig({ PORT: '0', DATABASE_URL: scratch.url, SEED_DEMO_DATA: 'off', DEV_KEY_FILE: testKeyFile, LOG_LEVEL: 'silent' });
        await expect(startService(config, pino({ level: 'silent' }))).rejects.toThrow(/holds an unfinished copy .*Run the same pnpm db:copy command again/);

        const rerun = await run('copy', ['--to', scratch.url, '--data-dir', dataDir]);
        expect(rerun.stderr).toContain('holds an interrupted copy');
        expect(rerun.stdout).toMatch(/\(an interrupted copy started over\)\.\ntable +source rows +target rows +source checksum +target checksum\n/);
        expect(rerun.stdout).toMatch(/\ninvoices +81 +81 +([0-9a-f]{16}) +\1\n/);
        expect(rerun.stdout).toMatch(/\ninvoice_attachments +1 +1 +([0-9a-f]{16}) +\1\n/);
        expect(rerun.stdout).toMatch(/\nidempotency_keys +1 +1 +([0-9a-f]{16}) +\1\n/);
        expect(rerun.code).toBe(0);
        expect(await findIncompleteCopy(target.db)).toBeUndefined();
      } finally {
        await target.close();
      }
    },
    commandTestTimeoutMs,
  );

  it(
    'db:restore fills an empty directory with every row, sequence and key the service had, and a service on it replays the key',
    async () => {
      const file = join(workDir, 'running.tar.gz');
      const restoredDir = join(workDir, 'restored');
      const restore = await run('restore', [file, '--data-dir', restoredDir]);
      expect(restore.stdout).toMatch(
        /rows: accounts 2, company_clients 30, deliveries 8, delivery_items \d+, idempotency_keys 1, invoices 81, invoice_attachments 1, invoice_counts \d+, users 6\.\n$/,
      );
      expect(restore.code).toBe(0);
      expect((await readdir(workDir)).filter((name) => name.startsWith('restored'))).toEqual(['restored']);

      // The PostgreSQL copy of the same directory (verified by the test above) is the reference.
      const reference = await openDatabase({ url: scratch.url, poolSize: 1 });
      const restored: Database = await openDatabase({ dataDir: restoredDir });
      try {
        expect(await contents(restored)).toEqual(await contents(reference));
        expect(await sequences(restored)).toEqual(await sequences(reference));
        const files = await sql<{ content: Uint8Array; sha256: string }>`select content, sha256 from invoice_attachments`.execute(restored.db);
        expect(files.rows.map((file) => [new Uint8Array(file.content), file.sha256])).toEqual([
          [attachedPdf, createHash('sha256').update(attachedPdf).digest('hex')],
        ]);
        const onRestored = await startTestService({ database: restored, handlers: createHandlers() });
        try {
          const replay = await createInvoice(onRestored.url);
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          expect({ status: replay.status, body: await replay.text() }).toEqual(firstAnswer);
        } finally {
          await onRestored.close();
        }
      } finally {
        await restored.close();
        await reference.close();
      }
    },
    commandTestTimeoutMs,
  );
});
