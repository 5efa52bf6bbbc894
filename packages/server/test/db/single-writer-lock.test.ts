// The single-writer lock of a PGlite data directory, with real processes: a running holder keeps
// every other process out and is named in the refusal; a holder that is gone (kill -9, a recycled
// pid, an earlier boot) is taken over; of several starters racing for one stale lock exactly one
// wins; and openDatabase holds the lock while a directory is open.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataDirectoryInUseError, openDatabase } from '../../src/db/database.js';
import { currentProcessIdentity } from '../../src/db/process-identity.js';
import { acquireSingleWriterLock, takeoverGuardPath, type LockRecord } from '../../src/db/single-writer-lock.js';
import { databaseHookTimeoutMs, pgliteTemplate } from '../support/databases.js';

const contenderEntry = fileURLToPath(new URL('./fixtures/lock-contender.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

type Outcome = { outcome: 'won' } | { outcome: 'refused'; reason: string; holderPid?: number; message: string };

interface Contender {
  pid: number;
  outcome: Promise<Outcome>;
  exited: Promise<number | string | null>;
  send(line: 'go' | 'release' | 'exit'): void;
  killHard(): Promise<void>;
}

const started: ChildProcessWithoutNullStreams[] = [];

/** Starts a contender process and resolves once it is ready to try (it tries on `send('go')`). */
async function startContender(dataDir: string): Promise<Contender> {
  const child = spawn(process.execPath, ['--import', tsxLoader, contenderEntry, dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  started.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await Promise.race([lines.next(), exited.then((code) => ({ done: true as const, value: `exited ${code}: ${stderr}` }))]);
    if (line.done === true) throw new Error(`contender ended early: ${String(line.value)} ${stderr}`);
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const ready = await next();
  const outcome = next() as Promise<unknown> as Promise<Outcome>;
  outcome.catch(() => undefined);
  return {
    pid: ready['ready'] as number,
    outcome,
    exited,
    send: (line) => child.stdin.write(`${line}\n`),
    async killHard() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The pid of a process that has exited and been reaped: nobody runs under it now. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function record(overrides: Partial<LockRecord>, dataDir: string): LockRecord {
  return { ...currentProcessIdentity(), dataDir, nonce: 'written-by-the-test', ...overrides };
}

async function writeLock(lockFile: string, content: LockRecord | string): Promise<string> {
  const text = typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
  await writeFile(lockFile, text);
  return text;
}

async function refusal(dataDir: string): Promise<DataDirectoryInUseError> {
  const error = await acquireSingleWriterLock(dataDir).then(
    (lock) => lock.release().then(() => new Error('the lock was granted')),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DataDirectoryInUseError)) throw error;
  return error;
}

let root: string;
let dataDir: string;
let lockFile: string;
let case_ = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'single-writer-lock-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
/** Each case gets its own directory name, so a leftover of one cannot decide another. */
function freshDataDir(): void {
  case_ += 1;
  dataDir = join(root, `data-${case_}`);
  lockFile = `${dataDir}.lock`;
}

describe('single-writer lock', () => {
  it('claims a free directory, records who holds it, and removes the lock file on release', async () => {
    freshDataDir();
    const lock = await acquireSingleWriterLock(dataDir);
    expect(lock.lockFile).toBe(lockFile);
    const holder = JSON.parse(await readFile(lockFile, 'utf8')) as LockRecord;
    expect(holder).toMatchObject({ pid: process.pid, hostname: hostname(), dataDir });
    expect(Date.parse(holder.startedAt)).toBeLessThanOrEqual(Date.now());
    await lock.release();
    await expect(readFile(lockFile, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await lock.release();
  });

  it('refuses while another running process holds it, naming the directory and that process; free again once released', async () => {
    freshDataDir();
    const holder = await startContender(dataDir);
    holder.send('go');
    expect(await holder.outcome).toEqual({ outcome: 'won' });
    const before = await readFile(lockFile, 'utf8');

    const error = await refusal(dataDir);
    expect(error.reason).toBe('in-use');
    expect(error.holder?.pid).toBe(holder.pid);
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain(`process ${holder.pid} on host ${hostname()}`);
    expect(error.message).toContain(lockFile);
    expect(await readFile(lockFile, 'utf8')).toBe(before);

    holder.send('release');
    expect(await holder.exited).toBe(0);
    const lock = await acquireSingleWriterLock(dataDir);
    await lock.release();
  });

  it('is released by the exit of a holder that never released it', async () => {
    freshDataDir();
    const holder = await startContender(dataDir);
    holder.send('go');
    expect(await holder.outcome).toEqual({ outcome: 'won' });
    holder.send('exit');
    expect(await holder.exited).toBe(0);
    await expect(readFile(lockFile, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over from a holder killed with SIGKILL', async () => {
    freshDataDir();
    const holder = await startContender(dataDir);
    holder.send('go');
    expect(await holder.outcome).toEqual({ outcome: 'won' });
    await holder.killHard();
    expect((JSON.parse(await readFile(lockFile, 'utf8')) as LockRecord).pid).toBe(holder.pid);

    const lock = await acquireSingleWriterLock(dataDir);
    expect((JSON.parse(await readFile(lockFile, 'utf8')) as LockRecord).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock whose pid now belongs to a process started later (a recycled pid)', async () => {
    freshDataDir();
    // This very process runs under the recorded pid, but it is not the process that wrote the lock.
    await writeLock(lockFile, record({ pid: process.pid, startTicks: '1' }, dataDir));
    const lock = await acquireSingleWriterLock(dataDir);
    expect((JSON.parse(await readFile(lockFile, 'utf8')) as LockRecord).startTicks).toBe(currentProcessIdentity().startTicks);
    await lock.release();
  });

  it('takes over a lock written before the last boot (power loss), whatever runs under its pid now', async () => {
    freshDataDir();
    await writeLock(lockFile, record({ bootId: '00000000-0000-0000-0000-000000000000' }, dataDir));
    const lock = await acquireSingleWriterLock(dataDir);
    await lock.release();
  });

  it('refuses a lock written on another host, and says how to clear it', async () => {
    freshDataDir();
    const written = await writeLock(lockFile, record({ hostname: 'build-server-7', pid: 4321 }, dataDir));
    const error = await refusal(dataDir);
    expect(error.reason).toBe('other-host');
    expect(error.message).toContain('process 4321 on host build-server-7');
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain(`remove ${lockFile}`);
    expect(await readFile(lockFile, 'utf8')).toBe(written);
  });

  it('refuses a lock file that does not say who holds it, naming the file', async () => {
    freshDataDir();
    await writeLock(lockFile, 'not a lock\n');
    const error = await refusal(dataDir);
    expect(error.reason).toBe('unreadable');
    expect(error.message).toContain(`remove ${lockFile}`);
  });

  it('finishes a takeover left half done by a starter that died in it, and leaves no guard behind', async () => {
    freshDataDir();
    const stale = await writeLock(lockFile, record({ pid: deadPid() }, dataDir));
    await writeLock(takeoverGuardPath(lockFile, stale), record({ pid: deadPid(), nonce: 'dead-taker' }, dataDir));
    const lock = await acquireSingleWriterLock(dataDir);
    expect((await readdir(dirname(lockFile))).filter((name) => name.startsWith(basename(dataDir)))).toEqual([basename(lockFile)]);
    await lock.release();
  });

  it('never removes a lock file that is no longer its own', async () => {
    freshDataDir();
    const lock = await acquireSingleWriterLock(dataDir);
    const successor = await writeLock(lockFile, record({ nonce: 'a-successor' }, dataDir));
    await lock.release();
    expect(await readFile(lockFile, 'utf8')).toBe(successor);
  });

  it('lets exactly one of several starters take over a stale lock, round after round', { timeout: 120_000 }, async () => {
    freshDataDir();
    const first = await startContender(dataDir);
    first.send('go');
    expect(await first.outcome).toEqual({ outcome: 'won' });
    await first.killHard();

    let contenders = await Promise.all(Array.from({ length: 6 }, () => startContender(dataDir)));
    const winners: number[] = [];
    for (let round = 1; round <= 3; round += 1) {
      // Every contender is waiting on its stdin: released together, they all find the same stale lock.
      for (const contender of contenders) contender.send('go');
      const outcomes = await Promise.all(contenders.map((contender) => contender.outcome));
      const won = contenders.filter((_, index) => outcomes[index]!.outcome === 'won');
      expect(won, `round ${round}: ${JSON.stringify(outcomes)}`).toHaveLength(1);
      const winner = won[0]!;
      winners.push(winner.pid);
      for (const outcome of outcomes) {
        if (outcome.outcome === 'refused') expect(outcome).toMatchObject({ reason: 'in-use', holderPid: winner.pid });
      }
      expect((JSON.parse(await readFile(lockFile, 'utf8')) as LockRecord).pid).toBe(winner.pid);
      // The winner dies holding the lock; the refused ones have exited: new contenders for the next round.
      await winner.killHard();
      if (round < 3) contenders = await Promise.all(Array.from({ length: 6 - round }, () => startContender(dataDir)));
    }
    expect(new Set(winners).size).toBe(3);
    // Nothing left behind but the last (stale) lock: no guard, no private file.
    expect((await readdir(root)).filter((name) => name.startsWith(`${basename(dataDir)}.lock.`))).toEqual([]);
  });
});

describe('openDatabase on a PGlite directory', () => {
  it(
    'holds the lock while open, refuses a second opener, and releases it on close',
    async () => {
      freshDataDir();
      const dump = await pgliteTemplate();
      const database = await openDatabase({ dataDir, pgliteDataDirDump: dump });
      try {
        expect((JSON.parse(await readFile(lockFile, 'utf8')) as LockRecord).pid).toBe(process.pid);
        const second = await openDatabase({ dataDir }).then(
          async (opened) => {
            await opened.close();
            return new Error('a second open was allowed');
          },
          (error: unknown) => error,
        );
        expect(second).toBeInstanceOf(DataDirectoryInUseError);
        expect((second as DataDirectoryInUseError).message).toContain(dataDir);
        await expect(database.ping()).resolves.toBe(true);
      } finally {
        await database.close();
      }
      await expect(readFile(lockFile, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      const reopened = await openDatabase({ dataDir });
      await reopened.close();
    },
    databaseHookTimeoutMs,
  );

  it(
    'opens any number of in-memory databases at once: nothing is shared, nothing is locked',
    async () => {
      const first = await openDatabase({ url: 'memory:', pgliteDataDirDump: await pgliteTemplate() });
      const second = await openDatabase({ url: 'memory:', pgliteDataDirDump: await pgliteTemplate() });
      expect(await Promise.all([first.ping(), second.ping()])).toEqual([true, true]);
      await Promise.all([first.close(), second.close()]);
    },
    databaseHookTimeoutMs,
  );
});
