// `pnpm db:backup FILE [--data-dir DIR]`: a consistent copy of the embedded database in one file. When
// a service runs on the directory, it takes the snapshot itself (backup-socket.ts); when none does,
// this command takes the directory's lock (so none can start meanwhile) and takes it. The file is
// written under a temporary name and renamed when complete: a failure leaves no file behind.
import { randomBytes } from 'node:crypto';
import { open, realpath, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openDatabase } from '../db/database.js';
import { DataDirectoryInUseError } from '../db/single-writer-lock.js';
import { isEntryPoint } from '../runtime/entry-point.js';
import { backupSocketPath, requestSnapshot } from './backup-socket.js';
import { CommandError, embeddedDataDir, isDirectory, megabytes, parseCommandLine, pathExists, progress, runCommand, userPath } from './command-line.js';

export const backupUsage = `Usage: pnpm db:backup FILE [--data-dir DIR]
Writes a consistent copy of the embedded (PGlite) database to FILE, a gzipped tarball of its data
directory that pnpm db:restore reads. Works while the service runs (it takes the snapshot) and when it
does not. DIR defaults to PGLITE_DATA_DIR, else .data/pglite. FILE must not exist yet.`;

export async function backup(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv, { 'data-dir': { type: 'string' } });
  if (positionals.length !== 1) throw new CommandError('name one backup file; --help shows the usage.');
  const file = userPath(positionals[0] ?? '');
  const dataDir = embeddedDataDir(values['data-dir']);
  if (await pathExists(file)) throw new CommandError(`${file} already exists; name a new file (a backup never overwrites one).`);
  if (!(await isDirectory(dirname(file)))) throw new CommandError(`the directory ${dirname(file)} does not exist.`);
  if (!(await pathExists(join(dataDir, 'PG_VERSION')))) throw new CommandError(`there is no embedded database in ${dataDir} (no PG_VERSION file).`);

  const { bytes, how } = await takeSnapshot(await realpath(dataDir));
  progress(`backup: writing ${megabytes(bytes.byteLength)} to ${file}`);
  await writeWhole(file, bytes);
  process.stdout.write(`Backed up ${dataDir} to ${file} (${megabytes(bytes.byteLength)}, ${how}).\n`);
}

async function takeSnapshot(dataDir: string): Promise<{ bytes: Uint8Array; how: string }> {
  const socket = backupSocketPath(dataDir);
  if (socket !== undefined) {
    progress(`backup: asking the service running on ${dataDir} for a snapshot`);
    let reported = 0;
    const answer = await requestSnapshot(socket, (received, total) => {
      // A line per 16 MB received, for a large database.
      if (received - reported < 16 * 1_048_576) return;
      reported = received;
      progress(`backup: received ${megabytes(received)}${total === undefined ? '' : ` of ${megabytes(total)}`}`);
    });
    if (answer.kind === 'snapshot') return { bytes: answer.bytes, how: 'snapshot taken by the running service' };
  }
  progress(`backup: no service runs on ${dataDir}; opening it under its lock`);
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ dataDir });
  } catch (error) {
    if (error instanceof DataDirectoryInUseError && error.reason === 'in-use') {
      throw new CommandError(
        `${error.message} That process does not offer online backups${socket === undefined ? ' (the backup socket path beside this directory is too long)' : ''}: stop it, then back up.`,
      );
    }
    throw error;
  }
  try {
    progress('backup: taking the snapshot');
    const dump = await database.dumpDataDir?.();
    if (dump === undefined) throw new CommandError('this database cannot be dumped.');
    return { bytes: new Uint8Array(await dump.arrayBuffer()), how: 'taken with no service running' };
  } finally {
    await database.close();
  }
}

/** Writes `bytes` to a temporary file beside `file`, flushes it to disk, then renames it into place. */
async function writeWhole(file: string, bytes: Uint8Array): Promise<void> {
  const partial = `${file}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(partial, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  } catch (error) {
    await unlink(partial).catch(() => undefined);
    throw error;
  }
}

if (isEntryPoint(import.meta.url)) await runCommand('db:backup', backupUsage, () => backup(process.argv.slice(2)));
