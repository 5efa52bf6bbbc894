// Creating and dropping the benchmark's own PostgreSQL databases, through the server's maintenance
// database. Names are checked against a strict pattern because CREATE DATABASE takes no parameters.
import pg from 'pg';

const databaseNamePattern = /^[a-z][a-z0-9_]{0,62}$/;

function assertDatabaseName(name: string): void {
  if (!databaseNamePattern.test(name)) throw new Error(`Unsafe database name ${JSON.stringify(name)}`);
}

/** `postgres://user@host:port/name` with the database part replaced. */
export function databaseUrl(serverUrl: string, name: string): string {
  assertDatabaseName(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withMaintenanceClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  assertDatabaseName(name);
  await withMaintenanceClient(serverUrl, async (client) => {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount === 0) await client.query(`create database "${name}"`);
  });
}

/** Creates `name` as a copy of `template` (which must have no open connection), unless `name` exists. */
export async function copyDatabaseIfMissing(serverUrl: string, template: string, name: string): Promise<boolean> {
  assertDatabaseName(template);
  assertDatabaseName(name);
  return withMaintenanceClient(serverUrl, async (client) => {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount !== 0) return false;
    await client.query(`create database "${name}" template "${template}"`);
    return true;
  });
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  assertDatabaseName(name);
  await withMaintenanceClient(serverUrl, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
  });
}
