// One process at a time per PGlite data directory. PGlite is PostgreSQL in single-user mode with no
// lock of its own on a Node data directory: two processes that open the same directory both start,
// both hand out the same ids, and one's commits silently overwrite the other's. This lock is
// PostgreSQL's postmaster.pid idea: a file beside the directory (`<dataDir>.lock`) naming the
// holder (pid, host, and its start identity from process-identity.ts), created atomically. A second
// opener that finds a running holder refuses, naming it; one that finds a dead holder (kill -9, power
// loss) takes the file over, so a crash never locks the directory for ever.
//
// Why not `proper-lockfile` (or any mtime-based lock): it judges staleness by the lock's age, so it
// must keep touching the file while held and a kill -9'd holder blocks every start for the stale
// period; a holder that misses its update (a stalled disk, a paused VM) is declared stale while still
// running, which is exactly the two-writer case this lock exists to prevent. Whether a process runs
// is a fact the kernel knows; asking it needs no clock.
//
// Taking a stale lock over is the delicate part: several starters may find the same dead holder at
// once, and "remove it, then create mine" lets a slow one remove the fresh lock of a fast one. So a
// stale file is replaced only under a guard file named after the exact content that was found stale
// (each lock carries a random nonce, so that content never recurs): of the starters that read the
// same stale file, one creates the guard, re-reads the lock, and replaces it only if it is still that
// same file. A guard left by a starter that died inside this short step is itself taken over the
// same way.
import { createHash, randomBytes } from 'node:crypto';
import { link, open, readFile, unlink } from 'node:fs/promises';
import { readFileSync, unlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentProcessIdentity, judgeHolder, type ProcessIdentity } from './process-identity.js';

/** What the lock file holds: who holds the directory, and a nonce that makes this claim unique. */
export interface LockRecord extends ProcessIdentity {
  dataDir: string;
  nonce: string;
}

export type RefusalReason =
  /** A running process on this host holds the directory. */
  | 'in-use'
  /** A process on another host (or in another pid namespace) holds it; it cannot be checked from here. */
  | 'other-host'
  /** The lock file exists but does not say who holds it. */
  | 'unreadable'
  /** Another starter kept taking the stale lock over for longer than the wait. */
  | 'takeover-in-progress';

/** The data directory is held by another process (or cannot be claimed); its message says what to do. */
export class DataDirectoryInUseError extends Error {
  override readonly name = 'DataDirectoryInUseError';
  constructor(
    readonly reason: RefusalReason,
    readonly dataDir: string,
    readonly lockFile: string,
    readonly holder: LockRecord | undefined,
  ) {
    super(refusalMessage(reason, dataDir, lockFile, holder));
  }
}

export interface SingleWriterLock {
  readonly dataDir: string;
  readonly lockFile: string;
  /** Removes the lock file if it is still this process's; safe to call more than once. */
  release(): Promise<void>;
}

/** How long a starter waits while another one is in the middle of taking a stale lock over. */
const takeoverWaitMs = 10_000;
const takeoverPollMs = 20;
/** Guards of guards: each level needs a starter to die inside the previous one's few milliseconds. */
const maximumGuardDepth = 4;

/**
 * Claims `dataDir` (an absolute, canonical path) for this process, or throws DataDirectoryInUseError.
 * The lock is released by `release()` and, failing that, when the process exits.
 */
export async function acquireSingleWriterLock(dataDir: string): Promise<SingleWriterLock> {
  const lockFile = `${dataDir}.lock`;
  const record: LockRecord = { ...currentProcessIdentity(), dataDir, nonce: randomBytes(16).toString('hex') };
  const content = `${JSON.stringify(record, null, 2)}\n`;
  const deadline = Date.now() + takeoverWaitMs;
  for (;;) {
    const outcome = await claim(lockFile, content, 0);
    if (outcome.kind === 'claimed') return held(dataDir, lockFile, content);
    if (outcome.kind === 'refused') throw new DataDirectoryInUseError(outcome.reason, dataDir, lockFile, outcome.holder);
    if (Date.now() > deadline) throw new DataDirectoryInUseError('takeover-in-progress', dataDir, lockFile, outcome.taker);
    await sleep(takeoverPollMs);
  }
}

type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'refused'; reason: 'in-use' | 'other-host' | 'unreadable'; holder: LockRecord | undefined }
  /** Another starter is replacing the stale file right now: look again shortly. */
  | { kind: 'busy'; taker: LockRecord | undefined };

/** Creates `path` with `content` if it is absent or its holder is gone; otherwise says who holds it. */
async function claim(path: string, content: string, depth: number): Promise<ClaimOutcome> {
  // Each turn of the loop follows a change someone else made (the file vanished or was replaced);
  // a few turns settle it, and a bound keeps a pathological filesystem from spinning for ever.
  for (let turn = 0; turn < 50; turn += 1) {
    if (await createExclusively(path, content)) return { kind: 'claimed' };
    const found = await readIfPresent(path);
    if (found === undefined) continue;
    const holder = parseRecord(found);
    if (holder === undefined) return { kind: 'refused', reason: 'unreadable', holder: undefined };
    const verdict = judgeHolder(holder);
    if (verdict === 'running') return { kind: 'refused', reason: 'in-use', holder };
    if (verdict === 'elsewhere') return { kind: 'refused', reason: 'other-host', holder };
    if (depth >= maximumGuardDepth) return { kind: 'busy', taker: undefined };

    const guardPath = takeoverGuardPath(path, found);
    const guard = await claim(guardPath, content, depth + 1);
    if (guard.kind !== 'claimed') return { kind: 'busy', taker: guard.kind === 'refused' ? guard.holder : guard.taker };
    try {
      // Only the file that was judged stale may go: if it changed meanwhile, another starter won.
      if ((await readIfPresent(path)) === found) {
        await unlinkIfPresent(path);
        if (await createExclusively(path, content)) return { kind: 'claimed' };
      }
    } finally {
      await unlinkIfPresent(guardPath);
    }
  }
  return { kind: 'busy', taker: undefined };
}

/**
 * Creates `path` holding `content` only if nothing is there, atomically and complete: the content is
 * written to a private file first and hard-linked into place (link fails if the name exists), so no
 * reader ever sees a half-written lock. Filesystems without hard links get an O_EXCL create instead.
 */
async function createExclusively(path: string, content: string): Promise<boolean> {
  const privatePath = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  await writeDurably(privatePath, content);
  try {
    await link(privatePath, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error;
    try {
      await writeDurably(path, content);
      return true;
    } catch (exclusiveError) {
      if ((exclusiveError as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw exclusiveError;
    }
  } finally {
    await unlinkIfPresent(privatePath);
  }
}

/** O_EXCL create, write, fsync: after a power loss the file is either absent or whole. */
async function writeDurably(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function held(dataDir: string, lockFile: string, content: string): SingleWriterLock {
  const releaseOnExit = (): void => releaseSync(lockFile, content);
  heldLocks.add(releaseOnExit);
  ensureExitHook();
  let released = false;
  return {
    dataDir,
    lockFile,
    async release() {
      if (released) return;
      released = true;
      heldLocks.delete(releaseOnExit);
      if ((await readIfPresent(lockFile)) === content) await unlinkIfPresent(lockFile);
    },
  };
}

/** Locks this process still holds, released synchronously when it exits without closing them. */
const heldLocks = new Set<() => void>();
let exitHookInstalled = false;

function ensureExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const release of heldLocks) release();
  });
}

function releaseSync(lockFile: string, content: string): void {
  try {
    if (readFileSync(lockFile, 'utf8') === content) unlinkSync(lockFile);
  } catch {
    // Already gone, or unreadable: nothing of ours to remove.
  }
}

function parseRecord(text: string): LockRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { pid, hostname, dataDir, nonce, startedAt } = record;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (typeof hostname !== 'string' || typeof dataDir !== 'string' || typeof nonce !== 'string' || typeof startedAt !== 'string') return undefined;
  const optional = (key: 'pidNamespace' | 'bootId' | 'startTicks'): Partial<Record<typeof key, string>> =>
    typeof record[key] === 'string' ? { [key]: record[key] } : {};
  return { pid, hostname, dataDir, nonce, startedAt, ...optional('pidNamespace'), ...optional('bootId'), ...optional('startTicks') };
}

/** The guard that whoever replaces the lock file `path`, found holding `staleContent`, must hold. */
export function takeoverGuardPath(path: string, staleContent: string): string {
  return `${path}.takeover-${createHash('sha256').update(staleContent).digest('hex').slice(0, 16)}`;
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function refusalMessage(reason: RefusalReason, dataDir: string, lockFile: string, holder: LockRecord | undefined): string {
  const who = holder === undefined ? 'another process' : `process ${holder.pid} on host ${holder.hostname} (started ${holder.startedAt})`;
  switch (reason) {
    case 'in-use':
      return `The PGlite data directory ${dataDir} is in use by ${who}; only one process may open it (lock file ${lockFile}). Stop that process, or start this one with another PGLITE_DATA_DIR or a PostgreSQL DATABASE_URL.`;
    case 'other-host':
      return `The PGlite data directory ${dataDir} is locked by ${who}, which cannot be checked from this host${holder?.pidNamespace === undefined ? '' : ' or pid namespace'} (lock file ${lockFile}). If that process no longer runs, remove ${lockFile} and start again.`;
    case 'unreadable':
      return `The PGlite data directory ${dataDir} has a lock file that does not say who holds it (${lockFile}). If no process uses the directory, remove ${lockFile} and start again.`;
    case 'takeover-in-progress':
      return `The PGlite data directory ${dataDir} was left locked by a process that is gone, and ${who} kept taking the lock over for ${takeoverWaitMs / 1000} s (lock file ${lockFile}). Start again; if this repeats, make sure no process uses the directory and remove ${lockFile}.`;
  }
}
