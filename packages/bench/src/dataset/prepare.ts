// Brings a benchmark database to "migrated and loaded with exactly this data set", reusing a complete
// earlier load (a rerun does not spend minutes loading again) and otherwise loading it afresh: the
// invoices' secondary indexes are dropped for the bulk insert and rebuilt afterwards, which is several
// times faster than maintaining eleven b-trees and two trigram indexes row by row.
import type { DatasetSize } from '../profiles.js';
import { migrate, openDatabase, type Database } from '../server-modules.js';
import { createDatabaseIfMissing, databaseUrl } from './postgres-admin.js';
import { generateDataset } from './generate.js';
import { sqlRunner, type SqlRunner } from './sql-runner.js';

/** What a complete load recorded: its size and the highest ids, so later runs can undo their writes. */
interface LoadRecord {
  size: string;
  max_invoice_id: number;
  max_delivery_id: number;
  max_delivery_item_id: number;
}

const markerTable = 'bench_dataset';

export interface PreparedDataset {
  /** True when an earlier complete load was reused. */
  reused: boolean;
  loadSeconds: number;
}

/** The PostgreSQL database `name` on `serverUrl`, created if missing and prepared with `size`; its URL. */
export async function preparedPostgresDatabase(serverUrl: string, name: string, size: DatasetSize, log: (line: string) => void): Promise<string> {
  await createDatabaseIfMissing(serverUrl, name);
  const url = databaseUrl(serverUrl, name);
  const database = await openDatabase({ url });
  try {
    await prepareDataset(database, size, log);
  } finally {
    await database.close();
  }
  return url;
}

export async function prepareDataset(database: Database, size: DatasetSize, log: (line: string) => void): Promise<PreparedDataset> {
  const started = performance.now();
  await migrate(database);
  const sql = sqlRunner(database);
  await sql.query(
    `create table if not exists ${markerTable} (size text primary key, max_invoice_id bigint not null, max_delivery_id bigint not null, max_delivery_item_id bigint not null)`,
  );
  const sizeKey = JSON.stringify(size);
  const [record] = await sql.query<LoadRecord & Record<string, unknown>>(`select * from ${markerTable} where size = $1`, [sizeKey]);
  if (record !== undefined) {
    await restoreBaseline(sql, record, size);
    await settle(sql);
    return { reused: true, loadSeconds: (performance.now() - started) / 1000 };
  }
  log(`loading ${size.invoices.toLocaleString('en-US')} invoices into ${database.engine} (once; later runs reuse them)`);
  await sql.query(`truncate ${markerTable}, delivery_items, deliveries, invoices, company_clients, users, accounts restart identity cascade`);
  const indexes = await dropSecondaryIndexes(sql, 'invoices');
  await generateDataset(sql, size);
  const indexStarted = performance.now();
  for (const definition of indexes) await sql.query(definition);
  log(`  rebuilt ${indexes.length} invoice indexes in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`);
  await settle(sql);
  await sql.query(
    `insert into ${markerTable} (size, max_invoice_id, max_delivery_id, max_delivery_item_id)
     select $1, (select coalesce(max(id), 0) from invoices), (select coalesce(max(id), 0) from deliveries), (select coalesce(max(id), 0) from delivery_items)`,
    [sizeKey],
  );
  const loadSeconds = (performance.now() - started) / 1000;
  log(`  loaded in ${loadSeconds.toFixed(1)} s`);
  return { reused: false, loadSeconds };
}

/**
 * The indexes of `table` that no constraint owns (constraint indexes stay: the load must honour
 * them), dropped; returns their definitions so the caller can rebuild them unchanged.
 */
async function dropSecondaryIndexes(sql: SqlRunner, table: string): Promise<string[]> {
  const rows = await sql.query<{ indexname: string; indexdef: string }>(
    `select i.indexname, i.indexdef from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = $1
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [table],
  );
  for (const row of rows) await sql.query(`drop index ${quoteIdentifier(row.indexname)}`);
  return rows.map((row) => row.indexdef);
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * VACUUM ANALYZE: fresh statistics for the planner, and the visibility map set so index-only scans
 * (counts, the deep page's index walk) need not visit the table. Without it the first minutes of a
 * run measure autovacuum catching up with a million new rows rather than the service.
 */
async function settle(sql: SqlRunner): Promise<void> {
  await sql.query('vacuum analyze');
}

/** Removes what earlier benchmark runs wrote (created invoices, issued drafts) so every run starts alike. */
async function restoreBaseline(sql: SqlRunner, record: LoadRecord, size: DatasetSize): Promise<void> {
  await sql.query(`delete from delivery_items where id > $1`, [record.max_delivery_item_id]);
  await sql.query(`delete from deliveries where id > $1`, [record.max_delivery_id]);
  await sql.query(`delete from invoices where id > $1`, [record.max_invoice_id]);
  await sql.query(`update accounts set next_invoice_number = $1::bigint, next_delivery_number = $2::bigint`, [size.invoices + 1, size.deliveries + 1]);
}
