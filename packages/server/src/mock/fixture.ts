// The stateful mock's fixture: a copy of every table, taken once after seeding, that `restore()` brings
// the database back to in one transaction. Restoring touches only what differs (rows added since are
// deleted, rows changed are set back, rows missing are put back, identity sequences are reset), so a
// reset after a few calls costs a few row writes instead of rebuilding every index of 5,000 invoices;
// and the ids handed out after a reset are the same as after a fresh start. Tables, columns, primary
// keys and foreign keys are read from the catalog, so a new migration needs no change here, unless it
// adds a change counter (`changeCounters`) or a table that triggers derive from others (`derivedTables`).
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database, DatabaseSchema } from '../db/database.js';

/** Where the copies live: never on the search path, so no handler can read or write them. */
const fixtureSchema = 'mock_fixture';

/**
 * Counters that the database's triggers bump on every write to what they count, which readers compare
 * with a value they kept: a search cursor reuses its total while `accounts.invoices_version` is the one
 * it carries. Setting one back to the fixture's value would let it climb again to a value it had before
 * the reset, with other rows behind it. So restoring leaves them to the triggers, which the restore's
 * own writes fire like any other: a counter only moves forward, and one whose rows the reset did not
 * touch stays as it is.
 */
const changeCounters: { readonly [Table in keyof DatabaseSchema]?: ReadonlyArray<keyof DatabaseSchema[Table] & string> } = {
  accounts: ['invoices_version'],
};

interface TableShape {
  name: string;
  columns: string[];
  primaryKey: string[];
  /** Identity sequences with the value they had when the fixture was taken. */
  sequences: Array<{ name: string; lastValue: string; isCalled: boolean }>;
}

export interface Fixture {
  /** Brings every table back to the fixture, atomically; returns how many rows it had to write. */
  restore(): Promise<number>;
}

/** Copies every table of the `public` schema (Kysely's own migration tables aside) as it is now. */
export async function takeFixture(database: Database): Promise<Fixture> {
  const { db } = database;
  const tables = await readTables(db);
  await db.transaction().execute(async (trx) => {
    await sql`drop schema if exists ${sql.id(fixtureSchema)} cascade`.execute(trx);
    await sql`create schema ${sql.id(fixtureSchema)}`.execute(trx);
    for (const table of tables) await sql`create table ${copyOf(table)} as table ${live(table)}`.execute(trx);
  });
  return {
    async restore() {
      return db.transaction().execute(async (trx) => {
        let written = 0;
        // Children first when deleting, parents first when writing back: foreign keys hold at every step.
        for (const table of [...tables].reverse()) written += await deleteAdded(trx, table);
        for (const table of tables) written += (await setBackChanged(trx, table)) + (await putBackMissing(trx, table));
        for (const table of tables) {
          for (const sequence of table.sequences) {
            await sql`select setval(${sequence.name}::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`.execute(trx);
          }
        }
        return written;
      });
    },
  };
}

const live = (table: TableShape): RawBuilder<unknown> => sql`public.${sql.id(table.name)}`;
const copyOf = (table: TableShape): RawBuilder<unknown> => sql`${sql.id(fixtureSchema)}.${sql.id(table.name)}`;
const columnsOf = (alias: string, columns: readonly string[]): RawBuilder<unknown> => sql.join(columns.map((column) => sql.ref(`${alias}.${column}`)));
const sameKey = (left: string, right: string, table: TableShape): RawBuilder<unknown> =>
  sql.join(
    table.primaryKey.map((column) => sql`${sql.ref(`${left}.${column}`)} = ${sql.ref(`${right}.${column}`)}`),
    sql` and `,
  );

async function deleteAdded(trx: Transaction<DatabaseSchema>, table: TableShape): Promise<number> {
  const result = await sql`
    delete from ${live(table)} as live_row
    where not exists (select 1 from ${copyOf(table)} as kept where ${sameKey('kept', 'live_row', table)})`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

async function setBackChanged(trx: Transaction<DatabaseSchema>, table: TableShape): Promise<number> {
  const counters: readonly string[] = changeCounters[table.name as keyof DatabaseSchema] ?? [];
  const values = table.columns.filter((column) => !table.primaryKey.includes(column) && !counters.includes(column));
  if (values.length === 0) return 0;
  const result = await sql`
    update ${live(table)} as live_row
    set ${sql.join(values.map((column) => sql`${sql.id(column)} = ${sql.ref(`kept.${column}`)}`))}
    from ${copyOf(table)} as kept
    where ${sameKey('kept', 'live_row', table)}
      and row(${columnsOf('live_row', values)}) is distinct from row(${columnsOf('kept', values)})`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

async function putBackMissing(trx: Transaction<DatabaseSchema>, table: TableShape): Promise<number> {
  const columns = sql.join(table.columns.map((column) => sql.id(column)));
  const result = await sql`
    insert into ${live(table)} (${columns}) overriding system value
    select ${columnsOf('kept', table.columns)} from ${copyOf(table)} as kept
    where not exists (select 1 from ${live(table)} as live_row where ${sameKey('kept', 'live_row', table)})`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Tables the database's own triggers write from other tables' rows: restoring those rows brings them
 * back, and restoring them as well would apply the same change twice. invoice_counts (migration 0007)
 * follows the invoices.
 */
const derivedTables: ReadonlySet<string> = new Set(['invoice_counts']);

/** The tables to keep, each after the tables it references. */
async function readTables(db: Kysely<DatabaseSchema>): Promise<TableShape[]> {
  const names = (
    await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and c.relname not like 'kysely\\_%'
      order by c.relname`.execute(db)
  ).rows
    .map((row) => row.name)
    .filter((name) => !derivedTables.has(name));
  const references = (
    await sql<{ child: string; parent: string }>`
      select child.relname as child, parent.relname as parent from pg_constraint k
      join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
      join pg_namespace n on n.oid = child.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`.execute(db)
  ).rows;
  const tables: TableShape[] = [];
  for (const name of parentsFirst(names, references)) tables.push(await readTable(db, name));
  return tables;
}

function parentsFirst(names: readonly string[], references: ReadonlyArray<{ child: string; parent: string }>): string[] {
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const reference of references) if (reference.child === name && names.includes(reference.parent)) visit(reference.parent);
    ordered.push(name);
  };
  for (const name of names) visit(name);
  return ordered;
}

async function readTable(db: Kysely<DatabaseSchema>, name: string): Promise<TableShape> {
  const columns = (
    await sql<{ column: string; identity: boolean }>`
      select column_name as column, is_identity = 'YES' as identity from information_schema.columns
      where table_schema = 'public' and table_name = ${name} and is_generated = 'NEVER'
      order by ordinal_position`.execute(db)
  ).rows;
  const primaryKey = (
    await sql<{ column: string }>`
      select a.attname as column from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = ${`public.${name}`}::regclass and i.indisprimary`.execute(db)
  ).rows.map((row) => row.column);
  if (primaryKey.length === 0) throw new Error(`The stateful mock cannot keep table ${name}: it has no primary key.`);
  const sequences: TableShape['sequences'] = [];
  for (const { column } of columns.filter((candidate) => candidate.identity)) {
    const sequence = (await sql<{ name: string }>`select pg_get_serial_sequence(${`public.${name}`}, ${column}) as name`.execute(db)).rows[0]?.name;
    if (sequence === undefined) continue;
    const state = (
      await sql<{ lastValue: string; isCalled: boolean }>`
        select coalesce(last_value, start_value)::text as "lastValue", last_value is not null as "isCalled" from pg_sequences
        where format('%I.%I', schemaname, sequencename) = ${sequence}`.execute(db)
    ).rows[0];
    if (state !== undefined) sequences.push({ name: sequence, ...state });
  }
  return { name, columns: columns.map((row) => row.column), primaryKey, sequences };
}
