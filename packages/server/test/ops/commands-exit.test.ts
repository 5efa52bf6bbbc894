// Every database command (pnpm db:backup, db:restore, db:copy, db:check-totals) ends by itself once
// its work is done: on a fresh directory and on one a service has written to, with a service running on
// the directory and without. The regression this guards against: db:backup left PGlite open (it dumps through PGlite, never
// through Kysely, whose destroy alone was called), and PostgreSQL's statistics-flush timer inside PGlite
// re-armed itself every 10 s, so the process printed its result and never ended. A command that is still
// alive a few seconds after its last line fails here, named.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCommands, compiledMainArguments } from '../support/compiled-service.js';
import { createPostgresDatabase, databaseHookTimeoutMs, seedPgliteDirectory, type ScratchPostgres } from '../support/databases.js';
import { processKeyFile, signedToken } from '../support/dev-key.js';

/**
 * How long a command may stay alive after its last line. Once a command has printed its result, all
 * that is left is closing the database (a PGlite checkpoint, a pool's sockets) and the process's exit:
 * under a second, a few on a loaded machine (db:restore once took over 5 s on Node 24 while the whole
 * suite ran on a machine about 2.5x slower than usual). The bug this file guards against kept the
 * process alive through PGlite's statistics-flush timer, which fires every 10 s: at least 10 s more,
 * or for ever. 8 s lies between.
 */
const lingerLimitMs = 8_000;

/**
 * How long a command may work before printing its last line: opening PGlite and copying take seconds,
 * many more on a loaded machine. Silence before the result is work, not lingering; this only stops a
 * command that hangs in its work from hanging the file.
 */
const workLimitMs = 120_000;

/** Each test runs one command: its work, plus the linger limit. */
const commandTestTimeoutMs = workLimitMs + lingerLimitMs + 10_000;

/** The set-up seeds a directory, copies it and starts the service, seconds each (a minute or more on a loaded machine). */
const setUpTimeoutMs = 3 * databaseHookTimeoutMs;

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

type CommandName = keyof typeof compiledCommands;

interface CommandRun {
  /** `db:<name>`, for messages. */
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  args?: string[];
  env?: Record<string, string>;
  /**
   * The line (stdout or stderr) the command prints when its work is done. The linger clock starts
   * there, not at every progress line: a command may well be silent for seconds while it works.
   */
  lastLine: RegExp;
}

/**
 * Runs `pnpm db:<name>` the way the root package.json does (node on the compiled command). Resolves
 * with its exit code and output once it has exited; rejects, after killing it, when it is still alive
 * `lingerLimitMs` after the last thing it printed (counted from its last line) or has not printed
 * its last line within `workLimitMs`.
 */
function runCommand(name: CommandName, { args = [], env = {}, lastLine }: RunOptions): Promise<CommandRun> {
  const command = `db:${name}`;
  return new Promise((resolve, reject) => {
    const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, ['--enable-source-maps', compiledCommands[name], ...args], {
      cwd: repoRoot,
      // Only what the test names: no database setting of the developer's shell reaches the command.
      env: { ...process.env, PGLITE_DATA_DIR: '', DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = Date.now();
    let stdout = '';
    let stderr = '';
    let lastOutputAt = started;
    let lastLineSeen = false;
    let failure: string | undefined;
    const alive = (): boolean => child.exitCode === null && child.signalCode === null;
    const record = (text: string): void => {
      lastOutputAt = Date.now();
      if (!lastLineSeen && text.split('\n').some((line) => lastLine.test(line))) lastLineSeen = true;
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      record(stdout);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      record(stderr);
    });
    // A poll rather than a timer reset on each chunk: a tenth of a second is fine against seconds.
    const watch = setInterval(() => {
      if (!alive() || failure !== undefined) return;
      const now = Date.now();
      if (lastLineSeen && now - lastOutputAt > lingerLimitMs) {
        failure = `${command} is still running ${lingerLimitMs / 1_000} s after its last line`;
      } else if (!lastLineSeen && now - started > workLimitMs) {
        failure = `${command} printed no line matching ${lastLine} in ${workLimitMs / 1_000} s`;
      }
      if (failure !== undefined) child.kill('SIGKILL');
    }, 100);
    child.on('error', (error) => {
      clearInterval(watch);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(watch);
      if (failure === undefined) resolve({ command, code, stdout, stderr });
      else reject(new Error(`${failure}.\nstdout:\n${stdout}stderr:\n${stderr}`));
    });
  });
}

/** Asserts exit code `expected`, showing what the command printed on stderr when it is not. */
function expectExit(run: CommandRun, expected: number): void {
  expect(run.code, `${run.command} exited with ${run.code}; stderr:\n${run.stderr}`).toBe(expected);
}

/** A new data directory with a small demo data set (seedPgliteDirectory). */
function seedDirectory(dataDir: string): Promise<void> {
  return seedPgliteDirectory(dataDir, { invoices: 60, deliveries: 6, seed: 7 });
}

interface ServiceProcess {
  /** Resolves once it listens; rejects if it exits first. */
  url: Promise<string>;
  /** Sends SIGTERM and resolves with the exit code (or signal) once it has exited. */
  stop(): Promise<number | string | null>;
}

/** The compiled service (dist/main.js) in its own process on `dataDir`; `stop()` ends it whether or not it got to listen. */
function startServiceProcess(dataDir: string): ServiceProcess {
  const child = spawn(process.execPath, compiledMainArguments, {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DEV_KEY_FILE: processKeyFile,
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      DATABASE_URL: '',
      PGLITE_DATA_DIR: dataDir,
      SEED_DEMO_DATA: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const url = new Promise<string>((resolve, reject) => {
    // Read every log line, also after `listening`: a pipe left undrained would block the service's writes.
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (!line.startsWith('{')) return;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed['msg'] === 'listening' && typeof parsed['url'] === 'string') resolve(parsed['url']);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // Its own shutdown limit is SHUTDOWN_TIMEOUT_MS (10 s) plus 1 s; past that, it will not stop by itself.
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      try {
        return await exited;
      } finally {
        clearTimeout(force);
      }
    },
  };
}

describe('the database commands end when their work is done', () => {
  let workDir: string;
  /** A copy of the seeded directory taken before any service opened it: never served. */
  let freshDir: string;
  /** Seeded, then served by the compiled service, which writes invoices and idempotency keys to it. */
  let servedDir: string;
  let service: ServiceProcess | undefined;
  let freshTarget: ScratchPostgres | undefined;
  let servedTarget: ScratchPostgres | undefined;
  const keyedDescription = `kept with its idempotency key ${randomUUID()}`;

  beforeAll(async () => {
    // realpath: the commands name the directory by its canonical path (the backup's messages among them).
    workDir = await realpath(await mkdtemp(join(tmpdir(), 'db-commands-exit-')));
    freshDir = join(workDir, 'fresh');
    servedDir = join(workDir, 'served');
    await seedDirectory(servedDir);
    // Both directories start as the same seeded, closed cluster: a file copy of it is what seeding a
    // second directory with the same options would make, without a second PGlite in this process.
    await cp(servedDir, freshDir, { recursive: true });
    // The service starts in its own process meanwhile; the rest of the set-up overlaps with it.
    service = startServiceProcess(servedDir);
    const [url] = await Promise.all([
      service.url,
      createPostgresDatabase('exit_fresh').then((scratch) => {
        freshTarget = scratch;
      }),
      createPostgresDatabase('exit_served').then((scratch) => {
        servedTarget = scratch;
      }),
    ]);
    const bearer = await signedToken({ accountId: 1, clientId: 'commands-exit' });
    const createInvoice = (description: string, idempotencyKey?: string) =>
      fetch(`${url}/api/v1/invoices`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
        },
        body: JSON.stringify({ client_id: 1, amount: 12.5, currency: 'CHF', due_date: '2026-12-31', description }),
      });
    const key = randomUUID();
    const statuses: number[] = [];
    for (const [description, idempotencyKey] of [
      [keyedDescription, key],
      [keyedDescription, key],
      ['without an idempotency key', undefined],
      [`another keyed one ${randomUUID()}`, randomUUID()],
    ] as const) {
      const answer = await createInvoice(description, idempotencyKey);
      statuses.push(answer.status);
      await answer.arrayBuffer();
    }
    // The second is the first replayed: 201 again, and no new invoice.
    expect(statuses).toEqual([201, 201, 201, 201]);
  }, setUpTimeoutMs);

  afterAll(async () => {
    await service?.stop();
    await freshTarget?.drop();
    await servedTarget?.drop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  }, databaseHookTimeoutMs);

  describe('on a fresh directory, never served', () => {
    it(
      'db:backup',
      async () => {
        const file = join(workDir, 'fresh.tar.gz');
        const run = await runCommand('backup', { args: [file, '--data-dir', freshDir], lastLine: /^Backed up / });
        expectExit(run, 0);
        expect(run.stdout).toMatch(/, taken with no service running\)\.\n$/);
      },
      commandTestTimeoutMs,
    );

    it(
      'db:check-totals (the directory named by PGLITE_DATA_DIR, as the service would open it)',
      async () => {
        const run = await runCommand('check-totals', { env: { PGLITE_DATA_DIR: freshDir }, lastLine: /^Checked \d+ kept counts/ });
        expectExit(run, 0);
        expect(run.stdout).toMatch(/: every one equals its invoices\.\n$/);
      },
      commandTestTimeoutMs,
    );

    it(
      'db:copy --to an empty PostgreSQL database',
      async () => {
        const run = await runCommand('copy', { args: ['--to', freshTarget?.url ?? '', '--data-dir', freshDir], lastLine: /^Every table matches/ });
        expectExit(run, 0);
      },
      commandTestTimeoutMs,
    );
  });

  describe('with the service running on the directory', () => {
    it(
      'db:backup (the snapshot taken by the service)',
      async () => {
        const file = join(workDir, 'from-service.tar.gz');
        const run = await runCommand('backup', { args: [file, '--data-dir', servedDir], lastLine: /^Backed up / });
        expectExit(run, 0);
        expect(run.stderr).toContain(`backup: asking the service running on ${servedDir} for a snapshot`);
        expect(run.stdout).toMatch(/, snapshot taken by the running service\)\.\n$/);
      },
      commandTestTimeoutMs,
    );

    it(
      'db:check-totals refuses the directory the service holds (exit 2), and ends by itself',
      async () => {
        const run = await runCommand('check-totals', { env: { PGLITE_DATA_DIR: servedDir }, lastLine: /^Cannot check the totals: / });
        expectExit(run, 2);
        expect(run.stderr).toMatch(/^Cannot check the totals: The PGlite data directory .* is in use by process /);
      },
      commandTestTimeoutMs,
    );
  });

  describe('on the directory the service wrote to, once it has stopped', () => {
    const backupFile = (): string => join(workDir, 'served.tar.gz');

    beforeAll(async () => {
      const stopping = service;
      service = undefined;
      expect(await stopping?.stop()).toBe(0);
    }, databaseHookTimeoutMs);

    it(
      'db:backup',
      async () => {
        const run = await runCommand('backup', { args: [backupFile(), '--data-dir', servedDir], lastLine: /^Backed up / });
        expectExit(run, 0);
        expect(run.stdout).toMatch(/, taken with no service running\)\.\n$/);
      },
      commandTestTimeoutMs,
    );

    it(
      'db:check-totals',
      async () => {
        const run = await runCommand('check-totals', { env: { PGLITE_DATA_DIR: servedDir }, lastLine: /^Checked \d+ kept counts/ });
        expectExit(run, 0);
        expect(run.stdout).toMatch(/: every one equals its invoices\.\n$/);
      },
      commandTestTimeoutMs,
    );

    it(
      'db:copy --to an empty PostgreSQL database',
      async () => {
        const run = await runCommand('copy', { args: ['--to', servedTarget?.url ?? '', '--data-dir', servedDir], lastLine: /^Every table matches/ });
        expectExit(run, 0);
        // The service's writes are there: 60 seeded invoices and 3 created (one request was a replay).
        expect(run.stdout).toMatch(/\ninvoices +63 +63 +([0-9a-f]{16}) +\1\n/);
        expect(run.stdout).toMatch(/\nidempotency_keys +2 +2 +([0-9a-f]{16}) +\1\n/);
      },
      commandTestTimeoutMs,
    );

    it(
      'db:restore of its backup into a new, empty directory',
      async () => {
        // The backup taken by the db:backup case above.
        const run = await runCommand('restore', { args: [backupFile(), '--data-dir', join(workDir, 'restored')], lastLine: /^Restored / });
        expectExit(run, 0);
        // Tables are listed parents first (the attachments after the invoices they belong to).
        expect(run.stdout).toMatch(/ idempotency_keys 2,/);
        expect(run.stdout).toMatch(/ invoices 63,/);
        expect(run.stdout).toMatch(/ invoice_attachments 0,/);
      },
      commandTestTimeoutMs,
    );
  });
});
