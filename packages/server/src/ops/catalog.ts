// The tables of a database as its catalog describes them, so that db:copy copies every table the
// migrations made (today's and any added later) without a list of its own to keep up to date.
import { sql, type Kysely } from 'kysely';
import { copyMarkerTable } from '../db/copy-marker.js';

/** Kysely's own bookkeeping: each side migrates itself, so these are compared, not copied. */
export const migrationTables: readonly string[] = ['kysely_migration', 'kysely_migration_lock'];

export interface TableDescription {
  name: string;
  /** Columns that take values (generated columns are computed on arrival), in the table's order. */
  columns: string[];
  /**
   * Each column's type as PostgreSQL spells it (`format_type`, e.g. `numeric(14,2)`). Values are sent
   * as text parameters, and PGlite types a text parameter as text rather than inferring the column's
   * type: every value is cast to its column's type explicitly.
   */
  types: Record<string, string>;
  /** Primary key columns in key order; empty when the table has none. */
  primaryKey: string[];
  /** Sequences that fill a column (identity or serial): `schema.sequence` and the column. */
  sequences: Array<{ sequence: string; column: string }>;
  /** Tables this one references (foreign keys), which must be filled first. */
  references: string[];
}

/**
 * Every ordinary table of the current schema except the migration bookkeeping and the copy marker,
 * parents before children (foreign keys), so rows can be inserted in this order with every
 * constraint checked as they arrive.
 */
export async function describeTables(db: Kysely<unknown>): Promise<TableDescription[]> {
  const tables = await sql<{ oid: number; name: string }>`
    select c.oid::int8 as oid, c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'
    order by c.relname`.execute(db);
  const described: TableDescription[] = [];
  for (const { oid, name } of tables.rows) {
    if (migrationTables.includes(name) || name === copyMarkerTable) continue;
    const columns = await sql<{ name: string; type: string }>`
      select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = ${oid}::oid and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`.execute(db);
    const primaryKey = await sql<{ name: string }>`
      select a.attname as name
      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
      where i.indrelid = ${oid}::oid and i.indisprimary
      order by array_position(i.indkey::int2[], a.attnum)`.execute(db);
    const sequences = await sql<{ sequence: string | null; column: string }>`
      select pg_get_serial_sequence(quote_ident(${name}), attname) as sequence, attname as column
      from pg_attribute
      where attrelid = ${oid}::oid and attnum > 0 and not attisdropped`.execute(db);
    const references = await sql<{ name: string }>`
      select distinct r.relname as name
      from pg_constraint f join pg_class r on r.oid = f.confrelid
      where f.conrelid = ${oid}::oid and f.contype = 'f' and f.confrelid <> f.conrelid`.execute(db);
    described.push({
      name,
      columns: columns.rows.map((row) => row.name),
      types: Object.fromEntries(columns.rows.map((row) => [row.name, row.type])),
      primaryKey: primaryKey.rows.map((row) => row.name),
      sequences: sequences.rows.flatMap((row) => (row.sequence === null ? [] : [{ sequence: row.sequence, column: row.column }])),
      references: references.rows.map((row) => row.name),
    });
  }
  return parentsFirst(described);
}

/** Tables ordered so that each comes after every table it references; a cycle cannot be copied row by row. */
function parentsFirst(tables: TableDescription[]): TableDescription[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableDescription[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (table: TableDescription): void => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name))
      throw new Error(`The foreign keys of table ${table.name} form a cycle; db:copy copies tables parents first and cannot order it.`);
    visiting.add(table.name);
    for (const parent of table.references) {
      const referenced = byName.get(parent);
      if (referenced !== undefined) visit(referenced);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** The migrations applied to a database, in order; empty when it was never migrated. */
export async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const exists = await sql<{ present: boolean }>`select to_regclass('kysely_migration') is not null as present`.execute(db);
  if (exists.rows[0]?.present !== true) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((row) => row.name);
}

/** Tables of `tables` that hold at least one row. */
export async function tablesWithRows(db: Kysely<unknown>, tables: readonly TableDescription[]): Promise<string[]> {
  const filled: string[] = [];
  for (const table of tables) {
    const result = await sql<{ filled: boolean }>`select exists (select 1 from ${sql.table(table.name)}) as filled`.execute(db);
    if (result.rows[0]?.filled === true) filled.push(table.name);
  }
  return filled;
}
