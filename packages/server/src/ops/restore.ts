// `pnpm db:restore FILE [--data-dir DIR]`: a backup made by db:backup, unpacked into an empty (or not
// yet existing) data directory. It is unpacked into a temporary directory beside the target, opened
// once to check that PostgreSQL starts on it, and only then renamed into place: a bad file or a
// failure leaves the target as it was. The target's lock is held throughout, so no service starts on
// it half-way.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../db/database.js';
import { acquireSingleWriterLock } from '../db/single-writer-lock.js';
import { isEntryPoint } from '../runtime/entry-point.js';
import { appliedMigrations, describeTables } from './catalog.js';
import { CommandError, embeddedDataDir, isDirectory, megabytes, parseCommandLine, pathExists, progress, runCommand, userPath } from './command-line.js';

export const restoreUsage = `Usage: pnpm db:restore FILE [--data-dir DIR]
Restores a backup made by pnpm db:backup into DIR, which must be empty or absent (it is never
overwritten). DIR defaults to PGLITE_DATA_DIR, else .data/pglite. Start the service on it afterwards.`;

export async function restore(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv, { 'data-dir': { type: 'string' } });
  if (positionals.length !== 1) throw new CommandError('name one backup file; --help shows the usage.');
  const file = userPath(positionals[0] ?? '');
  const dataDir = embeddedDataDir(values['data-dir']);
  if (!(await pathExists(file))) throw new CommandError(`${file} does not exist.`);
  await requireEmptyOrAbsent(dataDir);

  const parent = dirname(dataDir);
  const createdParent = !(await pathExists(parent));
  await mkdir(parent, { recursive: true });
  const target = join(await realpath(parent), basename(dataDir));
  const lock = await acquireSingleWriterLock(target);
  const unpacked = `${target}.restoring-${randomBytes(4).toString('hex')}`;
  try {
    // Checked again under the lock: a service may have started on it since.
    await requireEmptyOrAbsent(target);
    const backupFile = new Blob([await readFile(file)]);
    progress(`restore: unpacking ${file} (${megabytes(backupFile.size)}) into ${target}`);
    const summary = await unpackAndCheck(backupFile, unpacked, file);
    // rename() replaces an empty directory in one step, and the unpacked one is complete by now.
    await rename(unpacked, target);
    process.stdout.write(`Restored ${file} into ${target}: ${summary}\n`);
  } catch (error) {
    await rm(unpacked, { recursive: true, force: true });
    if (createdParent) await rm(parent, { recursive: true, force: true });
    throw error;
  } finally {
    await lock.release();
  }
}

async function requireEmptyOrAbsent(dataDir: string): Promise<void> {
  if (!(await pathExists(dataDir))) return;
  if (!(await isDirectory(dataDir))) throw new CommandError(`${dataDir} is a file, not a data directory.`);
  if ((await readdir(dataDir)).length > 0) {
    throw new CommandError(
      `${dataDir} is not empty; db:restore fills only an empty or absent directory. Move it aside (or pass another --data-dir), then restore.`,
    );
  }
}

/** Unpacks the backup into `directory`, starts PostgreSQL on it and describes what it holds. */
async function unpackAndCheck(backupFile: Blob, directory: string, file: string): Promise<string> {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ dataDir: directory, pgliteDataDirDump: backupFile });
  } catch (error) {
    throw new CommandError(`${file} is not a backup made by db:backup (${error instanceof Error ? error.message : String(error)}).`);
  }
  try {
    progress('restore: checking the restored database');
    const db = database.db as Kysely<unknown>;
    const migrations = await appliedMigrations(db);
    const counts: string[] = [];
    for (const table of await describeTables(db)) {
      const result = await sql<{ count: string }>`select count(*)::text as count from ${sql.table(table.name)}`.execute(db);
      counts.push(`${table.name} ${result.rows[0]?.count ?? '?'}`);
    }
    const at = migrations.length === 0 ? 'never migrated' : `migration ${migrations[migrations.length - 1]}`;
    return `${at}; rows: ${counts.join(', ')}.`;
  } finally {
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) await runCommand('db:restore', restoreUsage, () => restore(process.argv.slice(2)));
