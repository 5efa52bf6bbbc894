// `like` must ignore case beyond ASCII (ZÜRICH finds Zürich). The columns keep COLLATE "C", so sorting
// stays by code point on both engines, but "C" folds only ASCII letters; the search compares under
// "C.utf8" instead (code point order too, Unicode case folding; present on PostgreSQL 15 and PGlite),
// and the trigram indexes are rebuilt on that same expression so they still serve the comparison.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['invoice_number', 'description']) {
    await sql`drop index if exists ${sql.id(`invoices_${column}_trgm`)}`.execute(db);
    await sql`create index ${sql.id(`invoices_${column}_trgm`)} on invoices using gin ((${sql.ref(column)} collate "C.utf8") gin_trgm_ops)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['invoice_number', 'description']) {
    await sql`drop index if exists ${sql.id(`invoices_${column}_trgm`)}`.execute(db);
    await sql`create index ${sql.id(`invoices_${column}_trgm`)} on invoices using gin (${sql.ref(column)} gin_trgm_ops)`.execute(db);
  }
}
