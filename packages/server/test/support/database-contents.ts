// What two databases must share to be "the same data": every row of every table, and where every
// sequence stands. Read through the catalog, so tables added by later migrations are compared too.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { describeTables } from '../../src/ops/catalog.js';

/** Every row of every table as JSON text, sorted: what "the same data" means here. */
export async function contents(database: Database): Promise<Record<string, string[]>> {
  const db = database.db as unknown as Kysely<unknown>;
  const all: Record<string, string[]> = {};
  for (const table of await describeTables(db)) {
    const rows = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table.name)} as t order by 1`.execute(db);
    all[table.name] = rows.rows.map((row) => row.row);
  }
  return all;
}

/** The last value of every sequence that fills a column. */
export async function sequences(database: Database): Promise<Record<string, string | null>> {
  const db = database.db as unknown as Kysely<unknown>;
  const values: Record<string, string | null> = {};
  for (const table of await describeTables(db)) {
    for (const { sequence } of table.sequences) {
      const result = await sql<{ value: string | null }>`select pg_sequence_last_value(${sequence}::regclass)::text as value`.execute(db);
      values[sequence] = result.rows[0]?.value ?? null;
    }
  }
  return values;
}
