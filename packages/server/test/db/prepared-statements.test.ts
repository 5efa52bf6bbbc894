import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { StatementNames } from '../../src/db/prepared-statements.js';
import { findInvoice } from '../../src/db/invoices.js';
import { seedIfEmpty } from '../../src/db/seed.js';
import { parseSearchRequest, searchInvoices } from '../../src/search/index.js';
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

  it('leaves unnamed the searches whose best plan depends on their values, and names the others', async () => {
    // One connection: every statement below runs on it, so pg_prepared_statements sees them all.
    const database = await openDatabase({ url: scratch.url, poolSize: 1 });
    opened.push(database);
    const search = (body: unknown) => searchInvoices(database, 1, parseSearchRequest(body));
    // More than five runs each: PostgreSQL considers a generic plan for a named statement from the sixth.
    for (let run = 0; run < 7; run += 1) {
      await search({ criteria: [{ field: 'description', operator: 'like', value: 'consult' }] });
      await search({ criteria: [{ field: 'amount', operator: 'between', value: [100, 200] }] });
      await search({ offset: 400 + run });
      await search({ criteria: [{ field: 'status', operator: '=', value: 'paid' }] });
    }
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db);
    const prepared = rows.map((row) => row.statement);
    // Only the equality search near the start of its result is named: its plan is the same for every status.
    expect(prepared.length).toBeGreaterThan(0);
    expect(prepared.filter((statement) => !/"status" = \$\d+/.test(statement))).toEqual([]);
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=off (for a pooler in transaction mode)', async () => {
    const database = await open(false);
    const prepared = await preparedOnOneConnection(database, (db) => findInvoice(db, 1, 1));
    expect(prepared).toEqual([]);
  });
});
