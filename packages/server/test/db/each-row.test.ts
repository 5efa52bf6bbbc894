import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { engines, useTestDatabase } from '../support/databases.js';

describe.each(engines)('eachRow on %s', (engine) => {
  // One connection on PostgreSQL: a statement after a failed one shows the connection is usable.
  const database = useTestDatabase(engine, { name: 'each_row', poolSize: 1 });

  it('hands over every row in the statement order and resolves with their count', async () => {
    const query = sql<{ n: number; label: string }>`select n, 'row ' || n as label from generate_series(1, ${2_500}::int) n order by n`.compile(database().db);
    const seen: number[] = [];
    const count = await database().eachRow(query, (row) => {
      expect(row.label).toBe(`row ${row.n}`);
      seen.push(row.n);
    });
    expect(count).toBe(2_500);
    expect(seen).toEqual(Array.from({ length: 2_500 }, (_, index) => index + 1));
  });

  it("fails with the handler's own error, and the database answers the next statement", async () => {
    const failure = new Error('the reader broke');
    const query = sql<{ n: number }>`select n from generate_series(1, 10) n`.compile(database().db);
    let calls = 0;
    await expect(
      database().eachRow(query, () => {
        calls += 1;
        if (calls === 3) throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(3);
    const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(database().db);
    expect(rows).toEqual([{ ok: 1 }]);
  });

  it("fails with the database's error for a statement that fails, and the database answers the next one", async () => {
    const query = sql<{ q: number }>`select 1 / (3 - n) as q from generate_series(1, 5) n`.compile(database().db);
    await expect(database().eachRow(query, () => undefined)).rejects.toMatchObject({ code: '22012' });
    const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(database().db);
    expect(rows).toEqual([{ ok: 1 }]);
  });
});

describe('eachRow on PostgreSQL', () => {
  const database = useTestDatabase('postgres', { name: 'each_row_pg', poolSize: 1 });

  it('hands each row over as it arrives, before the statement has completed', async () => {
    // Rows 1 and 2 are sent before row 3 divides by zero: a reader that waited for the whole result
    // (what node-postgres does with a callback) would get none of them.
    const query = sql<{ n: number }>`select n, 1 / (3 - n) as q from generate_series(1, 5) n`.compile(database().db);
    const seen: number[] = [];
    await expect(database().eachRow(query, (row) => seen.push(row.n))).rejects.toMatchObject({ code: '22012' });
    expect(seen).toEqual([1, 2]);
  });

  it('runs a statement with parameters as a named prepared statement, as the pool runs the others', async () => {
    const text = 'select n from generate_series(1, $1::int) n';
    const query = { ...sql<{ n: number }>`select n from generate_series(1, ${3}::int) n`.compile(database().db) };
    expect(query.sql).toBe(text);
    await database().eachRow(query, () => undefined);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database().db);
    expect(rows.map((row) => row.statement)).toContain(text);
  });
});
