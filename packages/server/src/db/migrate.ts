// Brings a database to the newest schema with Kysely's Migrator. Migrations are imported statically
// (no directory scanning), so they are bundled, type-checked and identical on both engines.
import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
import * as initialSchema from './migrations/0001_initial_schema.js';
import * as unicodeLikeIndexes from './migrations/0002_unicode_like_indexes.js';
import * as descriptionHashIndex from './migrations/0003_description_hash_index.js';
import * as filterThenNewestIndexes from './migrations/0004_filter_then_newest_indexes.js';
import * as idempotencyKeysAndVersions from './migrations/0005_idempotency_keys_and_versions.js';
import * as accountInvoicesVersion from './migrations/0006_account_invoices_version.js';
import * as invoiceCounts from './migrations/0007_invoice_counts.js';
import * as invoiceAttachments from './migrations/0008_invoice_attachments.js';

/** Every migration, in the order they run. Names are permanent: never rename an applied one. */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001_initial_schema': initialSchema,
  '0002_unicode_like_indexes': unicodeLikeIndexes,
  '0003_description_hash_index': descriptionHashIndex,
  '0004_filter_then_newest_indexes': filterThenNewestIndexes,
  '0005_idempotency_keys_and_versions': idempotencyKeysAndVersions,
  '0006_account_invoices_version': accountInvoicesVersion,
  '0007_invoice_counts': invoiceCounts,
  '0008_invoice_attachments': invoiceAttachments,
};

const provider: MigrationProvider = {
  getMigrations: async () => ({ ...migrations }),
};

/**
 * Brings the schema to exactly `name`: undoes every applied migration after it (their `down`s, newest
 * first), the schema an older checkout knows, e.g. for the benchmark's before/after against it. A
 * database behind `name` is migrated up to it instead (Kysely's migrateTo). Throws as `migrate` does.
 */
export async function migrateDownTo(database: Database, name: string): Promise<MigrationResultSet> {
  if (!Object.hasOwn(migrations, name)) throw new Error(`No migration is named ${name}`);
  return throwIfFailed(await new Migrator({ db: database.db, provider }).migrateTo(name), 'Undoing migration');
}

/** Applies every pending migration; throws (with the failing migration's name) when one fails. */
export async function migrate(database: Database): Promise<MigrationResultSet> {
  if (await isUpToDate(database)) return { results: [] };
  return throwIfFailed(await new Migrator({ db: database.db, provider }).migrateToLatest(), 'Migration');
}

/** The result set, or an error naming the migration that failed (`what` it was doing) and why. */
function throwIfFailed(resultSet: MigrationResultSet, what: string): MigrationResultSet {
  if (resultSet.error === undefined) return resultSet;
  const failed = resultSet.results?.find((result) => result.status === 'Error');
  const reason = resultSet.error instanceof Error ? resultSet.error.message : String(resultSet.error);
  throw new Error(`${what} ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: resultSet.error });
}

/**
 * True when exactly the known migrations are recorded as applied: the usual start, answered by one
 * query instead of the migrator's dozen statements and its lock. Anything else (no migration table
 * yet, one pending, one unknown to this code) is left to the migrator, which applies or reports it.
 */
async function isUpToDate(database: Database): Promise<boolean> {
  const known = Object.keys(migrations);
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === known.length && known.every((name) => applied.has(name));
  } catch {
    return false;
  }
}
