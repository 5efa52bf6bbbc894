// A b-tree entry may not exceed 2,704 bytes, and a description of 1,000 characters can take 4,000
// (emoji, CJK): the plain (account_id, description, id) index refused such invoices. Equality is all
// a b-tree did for description (`like` has the trigram index; description is not sortable), so the
// index now holds a fixed-size digest, and the search compares digests before values.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists invoices_account_id_description_id`.execute(db);
  await sql`create index invoices_account_id_description_md5 on invoices (account_id, md5(description))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists invoices_account_id_description_md5`.execute(db);
  await sql`create index invoices_account_id_description_id on invoices (account_id, description, id)`.execute(db);
}
