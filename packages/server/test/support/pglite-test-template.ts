// The PGlite databases of the tests start from a dump of a migrated (and, when asked, seeded) cluster
// instead of migrating and seeding each in WebAssembly: a file's database then costs a load, where
// migrations and the demo seed cost seconds of CPU per database, and dozens of files open one.
//
// The dump is made once per checkout and state of the database code: its name carries a hash of the
// PGlite version and of every file under src/db/ (the migrations, the seed and what they call), so an
// edit there makes a new one. Kept in `.data/` like the service's fresh-cluster template, and the same
// way (src/db/kept-dump.ts): files starting side by side never read half a dump.
// openTestDatabase still runs the migrations on it: a no-op on a current dump, and the proof that it is.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/database.js';
import { readOrMakeKeptDump } from '../../src/db/kept-dump.js';
import { migrate } from '../../src/db/migrate.js';
import { seedIfEmpty } from '../../src/db/seed.js';

const serverRoot = fileURLToPath(new URL('../../', import.meta.url));
const databaseCode = join(serverRoot, 'src/db');
const templateDirectory = fileURLToPath(new URL('../../../../.data/', import.meta.url));
const templatePrefix = 'test-pglite-';

/** Every file under `directory`, sorted, as relative paths. */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();
}

/** A hash of what a migrated, seeded cluster depends on: the PGlite build and the database code. */
async function databaseCodeHash(): Promise<string> {
  const hash = createHash('sha256');
  const manifest = JSON.parse(await readFile(join(serverRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  hash.update(`pglite ${manifest.dependencies['@electric-sql/pglite'] ?? 'unknown'}\n`);
  for (const file of await filesUnder(databaseCode)) {
    hash.update(`${file}\n`);
    hash.update(await readFile(join(databaseCode, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function makeDump(seeded: boolean): Promise<Blob> {
  const database = await openDatabase({ url: 'memory:' });
  try {
    await migrate(database);
    if (seeded) await seedIfEmpty(database);
    if (database.dumpDataDir === undefined) throw new Error('a PGlite database has no dumpDataDir');
    return await database.dumpDataDir();
  } finally {
    await database.close();
  }
}

/** Dumps of an older state of the database code, best effort: each is several MiB. */
async function removeStale(current: readonly string[]): Promise<void> {
  const names = await readdir(templateDirectory).catch(() => []);
  await Promise.all(
    names
      .filter((name) => name.startsWith(templatePrefix) && name.endsWith('.tar.gz') && !current.includes(name))
      .map((name) => rm(join(templateDirectory, name), { force: true }).catch(() => undefined)),
  );
}

async function readOrMake(seeded: boolean): Promise<Blob> {
  const hash = await databaseCodeHash();
  const name = (state: string) => `${templatePrefix}${hash}-${state}.tar.gz`;
  return readOrMakeKeptDump(
    join(templateDirectory, name(seeded ? 'seeded' : 'migrated')),
    () => makeDump(seeded),
    () => removeStale([name('seeded'), name('migrated')]),
  );
}

const dumps = new Map<boolean, Promise<Blob>>();

/** A dump of a migrated cluster, seeded with the demo data when `seeded`; read or made once per process. */
export function migratedPgliteTemplate(seeded: boolean): Promise<Blob> {
  let dump = dumps.get(seeded);
  if (dump === undefined) {
    dump = readOrMake(seeded);
    dumps.set(seeded, dump);
    dump.catch(() => dumps.delete(seeded));
  }
  return dump;
}
