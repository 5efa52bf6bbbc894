import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { StatementNames } from '../../src/db/prepared-statements.js';
import { findInvoice } from '../../src/db/invoices.js';
import { seedIfEmpty } from '../../src/db/seed.js';
import { createPostgresDatabase, databaseHookTimeoutMs, type ScratchPostgres } from '../support/databases.js';

describe('statement names', () => {
  it('names each text with parameters once, the same name every time, led by its command', () => {
    const names = new StatementNames(10);
    const first = names.nameOf('select $1', 1);
    expect(first).toMatch(/^SELECT#\d+$/);
    expect(names.nameOf('select $1', 1)).toBe(first);
    expect(names.nameOf('select $1, $2', 2)).not.toBe(first);
  });

  it('leaves a statement without parameters unnamed', () => {
    expect(new StatementNames(10).nameOf('begin', 0)).toBeUndefined();
  });

  it('names no more than its bound of texts: past it, new texts run unnamed and known ones keep their names', () => {
    const names = new StatementNames(2);
    const kept = names.nameOf('select $1 as a', 1);
    names.nameOf('select $1 as b', 1);
    expect(names.nameOf('select $1 as c', 1)).toBeUndefined();
    expect(names.size).toBe(2);
    expect(names.nameOf('select $1 as a', 1)).toBe(kept);
  });
});

/** The prepared statements of one pooled connection, after running `work` on that same connection. */
async function preparedOnOneConnection(database: Database, work: (db: Database['db']) => Promise<unknown>): Promise<string[]> {
  return database.db.connection().execute(async (connection) => {
    await work(connection);
    await work(connection);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection);
    return rows.map((row) => row.statement);
  });
}

describe('named statements on PostgreSQL', () => {
  let scratch: ScratchPostgres;
  const opened: Database[] = [];

  async function open(preparedStatements: boolean): Promise<Database> {
    const database = await openDatabase({ url: scratch.url, poolSize: 2, preparedStatements });
    opened.push(database);
    return database;
  }

  beforeAll(async () => {
    scratch = await createPostgresDatabase('db_prepared');
    const database = await open(true);
    await migrate(database);
    await seedIfEmpty(database);
  }, databaseHookTimeoutMs);

  afterAll(async () => {
    for (const database of opened) await database.close();
    await scratch?.drop();
  }, databaseHookTimeoutMs);

  it('prepares a statement with parameters once on its connection and answers from it again', async () => {
    const database = await open(true);
    const answers: unknown[] = [];
    const prepared = await preparedOnOneConnection(database, async (db) => answers.push(await findInvoice(db, 1, 1)));
    expect(prepared.filter((statement) => /from "invoices"/.test(statement))).toHaveLength(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ id: 1 });
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=off (for a pooler in transaction mode)', async () => {
    const database = await open(false);
    const prepared = await preparedOnOneConnection(database, (db) => findInvoice(db, 1, 1));
    expect(prepared).toEqual([]);
  });
});
