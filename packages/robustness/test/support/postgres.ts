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
      await pool.end();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}
