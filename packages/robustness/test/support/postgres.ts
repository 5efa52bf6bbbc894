// A PostgreSQL database of this test file's own on the shared loopback server: created, migrated and
// seeded with the demo data here, dropped afterwards, so parallel runs never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, seedIfEmpty } from './server-modules.js';

export const adminUrl = process.env['TEST_DATABASE_ADMIN_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestPostgres {
  name: string;
  url: string;
  /** A direct client for assertions on stored rows. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export function urlFor(name: string, host?: { host: string; port: number }): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (host !== undefined) {
    url.hostname = host.host;
    url.port = String(host.port);
  }
  return url.toString();
}

/**
 * Ends the pool and resolves once each of its connections has closed. pg's `Pool.end()` resolves as
 * soon as it has asked them to close; a `drop database ... with (force)` in that window terminates a
 * session still open, and its client, no longer the pool's, emits that error with no listener: an
 * uncaught exception in whichever test file happens to be running.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}

export async function createTestPostgres(prefix: string): Promise<TestPostgres> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe database name ${name}`);
  await admin(`create database "${name}"`);
  const url = urlFor(name);
  const database = await openDatabase({ url });
  try {
    await migrate(database);
    await seedIfEmpty(database);
  } finally {
    await database.close();
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    name,
    url,
    async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      return (await pool.query<R>(text, values)).rows;
    },
    async drop() {
      await endPool(pool);
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}
