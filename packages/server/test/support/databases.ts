// Real databases for tests, on both engines: a PGlite in memory and a PostgreSQL database of its own
// per test file (created here, dropped afterwards), so files can run in parallel without seeing each
// other's rows. Use `engines` with `describe.each` to run the same cases on both.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { freshClusterTemplate } from '../../src/db/pglite-cluster-template.js';
import { seedIfEmpty, type SeedOptions } from '../../src/db/seed.js';
import { migratedPgliteTemplate } from './pglite-test-template.js';

export type Engine = Database['engine'];
export const engines: readonly Engine[] = ['pglite', 'postgres'];

/** Where new test databases are created; the shared loopback server unless the environment says otherwise. */
export const adminDatabaseUrl = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** PGlite's initdb takes 3-7 s on a busy machine; seeding adds a little. Use for beforeAll/afterAll. */
export const databaseHookTimeoutMs = 60_000;

let databaseCounter = 0;

/** A database name unique to this process and call, safe as an SQL identifier. */
export function uniqueDatabaseName(prefix = 'test'): string {
  databaseCounter += 1;
  const safePrefix = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 20);
  return `${safePrefix}_${process.pid}_${randomBytes(4).toString('hex')}_${databaseCounter}`;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A dump of a freshly initialised PGlite cluster: the service's own fresh-cluster template
 * (src/db/pglite-cluster-template.ts), made once per checkout, so that a test starting a database
 * from it skips initdb exactly as a new data directory does.
 */
export function pgliteTemplate(): Promise<Blob> {
  return freshClusterTemplate();
}

export interface ScratchPostgres {
  /** Connection URL of the new, empty database. */
  url: string;
  name: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/** Creates an empty PostgreSQL database with a unique name on the admin server. */
export async function createPostgresDatabase(prefix?: string): Promise<ScratchPostgres> {
  const name = uniqueDatabaseName(prefix);
  await withAdmin((client) => client.query(`create database "${name}"`));
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdmin(async (client) => {
        await client.query(`drop database if exists "${name}" with (force)`);
      }),
  };
}

export interface OpenTestDatabaseOptions {
  /** Load the demo seed (2 accounts, 5,000 invoices...) after migrating. */
  seed?: boolean;
  /** Prefix of the PostgreSQL database name, to tell test files apart on the server. */
  name?: string;
  poolSize?: number;
}

export interface TestDatabase extends Database {
  /** Closes the database and, on PostgreSQL, drops it. */
  dispose(): Promise<void>;
}

/** A migrated (optionally seeded) database on `engine`, all its own. */
export async function openTestDatabase(engine: Engine, options: OpenTestDatabaseOptions = {}): Promise<TestDatabase> {
  const scratch = engine === 'postgres' ? await createPostgresDatabase(options.name) : undefined;
  const database = await openDatabase({
    url: scratch?.url ?? 'memory:',
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    // A PGlite database starts migrated (and seeded when asked) from a dump made once (pglite-test-template.ts).
    ...(engine === 'pglite' ? { pgliteDataDirDump: await migratedPgliteTemplate(options.seed === true) } : {}),
  });
  try {
    await migrate(database);
    if (options.seed) await seedIfEmpty(database);
  } catch (error) {
    await database.close();
    await scratch?.drop();
    throw error;
  }
  return {
    ...database,
    engine: database.engine,
    db: database.db,
    async dispose() {
      await database.close();
      await scratch?.drop();
    },
  };
}

/**
 * Registers beforeAll/afterAll hooks that open a test database on `engine` for the enclosing
 * describe block and dispose of it afterwards. Returns a getter, valid inside tests.
 */
export function useTestDatabase(engine: Engine, options: OpenTestDatabaseOptions = {}): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(engine, options);
  }, databaseHookTimeoutMs);
  afterAll(async () => {
    await database?.dispose();
  }, databaseHookTimeoutMs);
  return () => {
    if (database === undefined) throw new Error('The test database is opened in beforeAll; use it inside a test or hook.');
    return database;
  };
}

/**
 * A new PGlite data directory, migrated and seeded with a small demo data set in this process, then
 * closed: the directory a command or a started service is then pointed at.
 */
export async function seedPgliteDirectory(dataDir: string, seed: SeedOptions): Promise<void> {
  const database = await openDatabase({ dataDir, pgliteDataDirDump: await migratedPgliteTemplate(false) });
  try {
    await migrate(database);
    await seedIfEmpty(database, seed);
  } finally {
    await database.close();
  }
}
