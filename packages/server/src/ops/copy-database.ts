// Copies every row of one database into another empty one, on either engine: the embedded database
// into PostgreSQL (the move when one machine is outgrown) or back (production-shaped data for a
// developer). The target is migrated with this code's migrations and must hold no rows; the source
// must be at the same migration, so both have the same tables and columns.
//
// All rows are written in one transaction on the target, which also drops the "incomplete" marker
// (copy-marker.ts) created and committed before it: a copy killed at any point leaves either the
// marker and no rows, or every row and no marker, never a database that looks whole but is not.
//
// Values travel as their text form (`column::text`), which PostgreSQL reads back exactly for every
// type (numeric, timestamptz in the UTC session, jsonb, arrays, bytea as `\x` hex), so nothing is lost to JavaScript
// numbers or dates. User triggers are disabled on the target while rows arrive: the rows carry what
// those triggers computed on the source (the accounts' invoice change counters, for instance), and
// letting them fire again would count every copied invoice a second time. Foreign keys stay checked:
// tables are filled parents first.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { clearCopyMarker, findIncompleteCopy, markCopyStarted } from '../db/copy-marker.js';
import { migrate, migrations } from '../db/migrate.js';
import { appliedMigrations, describeTables, tablesWithRows, type TableDescription } from './catalog.js';
import { CommandError } from './command-line.js';

export interface TableCheck {
  table: string;
  sourceRows: number;
  targetRows: number;
  /** 16 hex digits summarising every row's text: equal on both sides when the rows are the same. */
  sourceChecksum: string;
  targetChecksum: string;
}

export interface CopyOutcome {
  /** An interrupted copy was found on the target and started over. */
  resumed: boolean;
  tables: TableCheck[];
}

export interface CopyOptions {
  /** How the source is named in the target's marker and in messages (never with a password). */
  sourceName: string;
  targetName: string;
  progress: (line: string) => void;
}

/** Rows per INSERT, within PostgreSQL's 65,535 parameters per statement. */
const maximumBatchRows = 1_000;
const maximumBatchParameters = 30_000;
/**
 * Rows per INSERT of a table with a bytea column (an invoice's attached files, up to 10 MiB each): a
 * row's bytes travel as hex text, twice their size, so a thousand such rows could be gigabytes in
 * memory at once; eight are at most about 160 MB.
 */
const maximumBinaryBatchRows = 8;

export async function copyDatabase(source: Database, target: Database, options: CopyOptions): Promise<CopyOutcome> {
  const { progress } = options;
  await requireSameMigrations(source.db as Kysely<unknown>);
  const targetDb = target.db as Kysely<unknown>;

  const interrupted = await findIncompleteCopy(targetDb);
  if (interrupted === undefined) {
    const filled = await tablesWithRows(targetDb, await describeTables(targetDb));
    if (filled.length > 0) {
      throw new CommandError(
        `${options.targetName} already holds rows (in ${filled.join(', ')}); db:copy fills only an empty database. Point --to/--from at a new, empty one.`,
      );
    }
  } else {
    progress(`copy: ${options.targetName} holds an interrupted copy (from ${interrupted.source}, started ${interrupted.startedAt}); starting it over`);
  }
  await markCopyStarted(targetDb, options.sourceName);
  progress(`copy: ${options.targetName} is marked incomplete until the copy commits; migrating it`);
  await migrate(target);

  const tables = await describeTables(source.db as Kysely<unknown>);
  await requireSameTables(tables, await describeTables(targetDb));

  // One snapshot of the source for every table (it may be a live PostgreSQL), one transaction on the target.
  const checks = await source.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((sourceTrx) =>
      target.db.transaction().execute(async (targetTrx) => {
        const from = sourceTrx as unknown as Kysely<unknown>;
        const to = targetTrx as unknown as Kysely<unknown>;
        for (const table of tables) await sql`alter table ${sql.table(table.name)} disable trigger user`.execute(to);
        // A rerun after an interruption: the rows were rolled back with it, but never count on that.
        if (interrupted !== undefined && tables.length > 0) await sql`truncate ${sql.join(tables.map((table) => sql.table(table.name)))}`.execute(to);
        for (const table of tables) await copyTable(from, to, table, progress);
        for (const table of tables) await carrySequences(from, to, table);
        for (const table of tables) await sql`alter table ${sql.table(table.name)} enable trigger user`.execute(to);
        progress('copy: verifying row counts and checksums on both sides');
        const verified: TableCheck[] = [];
        for (const table of tables) {
          const before = await summarise(from, table);
          const after = await summarise(to, table);
          verified.push({
            table: table.name,
            sourceRows: before.rows,
            targetRows: after.rows,
            sourceChecksum: before.checksum,
            targetChecksum: after.checksum,
          });
        }
        const differing = verified.filter((check) => check.sourceRows !== check.targetRows || check.sourceChecksum !== check.targetChecksum);
        if (differing.length > 0) {
          // Thrown inside the transaction: nothing is committed and the marker stays.
          throw new CommandError(`the copy differs from the source in ${differing.map((check) => check.table).join(', ')}; nothing was committed.`);
        }
        await clearCopyMarker(to);
        return verified;
      }),
    );
  return { resumed: interrupted !== undefined, tables: checks };
}

async function requireSameMigrations(db: Kysely<unknown>): Promise<void> {
  const applied = await appliedMigrations(db);
  const known = Object.keys(migrations);
  if (applied.join('\n') === known.join('\n')) return;
  const at = applied.length === 0 ? 'was never migrated' : `is at migration ${applied[applied.length - 1]}`;
  throw new CommandError(
    `the source database ${at}, and this code's newest migration is ${known[known.length - 1]}: start the service (this version) on the source once, so that it migrates, then copy.`,
  );
}

async function requireSameTables(source: readonly TableDescription[], target: readonly TableDescription[]): Promise<void> {
  const shape = (tables: readonly TableDescription[]): string =>
    tables
      .map((table) => `${table.name}(${[...table.columns].sort().join(',')})`)
      .sort()
      .join(' ');
  if (shape(source) !== shape(target)) {
    throw new CommandError('the source and the target have different tables or columns after migrating; they must come from the same migrations.');
  }
}

async function copyTable(from: Kysely<unknown>, to: Kysely<unknown>, table: TableDescription, progress: (line: string) => void): Promise<void> {
  const total = Number((await sql<{ count: string }>`select count(*)::text as count from ${sql.table(table.name)}`.execute(from)).rows[0]?.count ?? 0);
  const binary = Object.values(table.types).includes('bytea');
  const batchRows = Math.max(
    1,
    Math.min(binary ? maximumBinaryBatchRows : maximumBatchRows, Math.floor(maximumBatchParameters / Math.max(1, table.columns.length))),
  );
  const columnsAsText = sql.join(table.columns.map((column) => sql`${sql.id(column)}::text as ${sql.id(column)}`));
  const columnList = sql.join(table.columns.map((column) => sql.id(column)));
  let copied = 0;
  let lastKey: Array<string | null> | undefined;
  let lastReport = performance.now();
  progress(`copy: ${table.name}: 0 of ${total} rows`);
  for (;;) {
    const rows = await readBatch(from, table, columnsAsText, batchRows, lastKey);
    if (rows.length === 0) break;
    await sql`insert into ${sql.table(table.name)} (${columnList}) overriding system value values ${sql.join(
      rows.map((row) => sql`(${sql.join(table.columns.map((column) => typed(table, column, row[column] ?? null)))})`),
    )}`.execute(to);
    copied += rows.length;
    // About one line a second for a large table, and always its last.
    if (copied >= total || performance.now() - lastReport >= 1_000) {
      progress(`copy: ${table.name}: ${copied} of ${total} rows`);
      lastReport = performance.now();
    }
    const last = rows[rows.length - 1];
    if (table.primaryKey.length === 0 || last === undefined) break;
    lastKey = table.primaryKey.map((column) => last[column] ?? null);
  }
}

/**
 * The next rows after `lastKey` in primary-key order (keyset paging: each batch costs the same however
 * far in). A table without a primary key is read whole in one statement.
 */
async function readBatch(
  from: Kysely<unknown>,
  table: TableDescription,
  columnsAsText: ReturnType<typeof sql.join>,
  batchRows: number,
  lastKey: Array<string | null> | undefined,
): Promise<Array<Record<string, string | null>>> {
  if (table.primaryKey.length === 0) {
    const result = await sql<Record<string, string | null>>`select ${columnsAsText} from ${sql.table(table.name)}`.execute(from);
    return result.rows;
  }
  // Qualified: a bare name in ORDER BY would mean the text output column of the same name, not the key.
  const key = sql.join(table.primaryKey.map((column) => sql`${sql.table(table.name)}.${sql.id(column)}`));
  const after =
    lastKey === undefined ? sql`true` : sql`(${key}) > (${sql.join(table.primaryKey.map((column, index) => typed(table, column, lastKey[index] ?? null)))})`;
  const result = await sql<Record<string, string | null>>`
    select ${columnsAsText} from ${sql.table(table.name)} where ${after} order by ${key} limit ${batchRows}`.execute(from);
  return result.rows;
}

/**
 * A value in its text form, as a parameter cast to its column's type. The type's name comes from the
 * catalog (describeTables), never from input; the value itself is always a parameter. The parameter is
 * cast to text first, so that it is a text parameter on both engines: PGlite would otherwise take the
 * outer cast's type for the parameter's and serialize the value for that type, which for bytea wants
 * bytes, not the `\x…` text it is given.
 */
function typed(table: TableDescription, column: string, value: string | null) {
  return sql`cast(cast(${value} as text) as ${sql.raw(table.types[column] ?? 'text')})`;
}

/**
 * Sets each of the target's sequences to where the source's stood, and never below the highest value
 * copied: the next id handed out is past every copied one, and ids the source used and deleted are
 * not handed out again.
 */
async function carrySequences(from: Kysely<unknown>, to: Kysely<unknown>, table: TableDescription): Promise<void> {
  for (const { sequence, column } of table.sequences) {
    const source = await sql<{ value: string | null }>`select pg_sequence_last_value(${sequence}::regclass)::text as value`.execute(from);
    const sourceValue = source.rows[0]?.value ?? null;
    await sql`
      select setval(${sequence}::regclass, next_value, true)
      from (select greatest(${sourceValue}::int8, (select max(${sql.id(column)})::int8 from ${sql.table(table.name)})) as next_value) as chosen
      where next_value is not null`.execute(to);
  }
}

/** Row count and an order-independent checksum: the sum of a 64-bit hash of every row's text. */
async function summarise(db: Kysely<unknown>, table: TableDescription): Promise<{ rows: number; checksum: string }> {
  const row = sql`row(${sql.join(table.columns.map((column) => sql.id(column)))})::text`;
  const result = await sql<{ rows: string; checksum: string }>`
    select count(*)::text as rows,
           left(md5(coalesce(sum(('x' || left(md5(${row}), 16))::bit(64)::int8::numeric), 0)::text), 16) as checksum
    from ${sql.table(table.name)}`.execute(db);
  const summary = result.rows[0];
  return { rows: Number(summary?.rows ?? 0), checksum: summary?.checksum ?? '' };
}
