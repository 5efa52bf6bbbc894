// The mark of a database that `pnpm db:copy` began to fill and has not finished. The copy creates this
// table (committed) before it writes anything else and drops it in the same transaction that commits
// the rows, so the table exists exactly while the database is not a whole copy: a copy killed half-way
// leaves it behind, the service refuses to start on such a database, and a rerun of db:copy finds it
// and starts the copy over.
import { sql, type Kysely } from 'kysely';

export const copyMarkerTable = 'db_copy_incomplete';

export interface IncompleteCopy {
  /** Where the copy came from, as db:copy described it (never a password). */
  source: string;
  startedAt: string;
}

/** The interrupted copy this database holds, if any. */
export async function findIncompleteCopy<Schema>(db: Kysely<Schema>): Promise<IncompleteCopy | undefined> {
  const exists = await sql<{ present: boolean }>`select to_regclass(${copyMarkerTable}) is not null as present`.execute(db);
  if (exists.rows[0]?.present !== true) return undefined;
  const row = await sql<{ source: string; started_at: string }>`select source, started_at::text from ${sql.table(copyMarkerTable)} limit 1`.execute(db);
  const marker = row.rows[0];
  return { source: marker?.source ?? '(unknown)', startedAt: marker?.started_at ?? '(unknown)' };
}

/** Creates the marker (committed at once, outside any transaction the caller holds). */
export async function markCopyStarted<Schema>(db: Kysely<Schema>, source: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`create table if not exists ${sql.table(copyMarkerTable)} (source text not null, started_at timestamptz(3) not null default now())`.execute(trx);
    await sql`delete from ${sql.table(copyMarkerTable)}`.execute(trx);
    await sql`insert into ${sql.table(copyMarkerTable)} (source) values (${source})`.execute(trx);
  });
}

/** Drops the marker; run inside the transaction that commits the copied rows. */
export async function clearCopyMarker<Schema>(db: Kysely<Schema>): Promise<void> {
  await sql`drop table if exists ${sql.table(copyMarkerTable)}`.execute(db);
}

/** The refusal a service or a command gives on a database holding an unfinished copy. */
export function incompleteCopyMessage(marker: IncompleteCopy): string {
  return `This database holds an unfinished copy (from ${marker.source}, started ${marker.startedAt}): db:copy was interrupted before it committed. Run the same pnpm db:copy command again; it starts the copy over and finishes it.`;
}
