// A per-account change counter for invoices, so that a page by cursor can reuse the exact total it was
// answered with while nothing in the account changed (search/query.ts). Statement-level triggers with
// transition tables bump it once per writing statement and account, not once per row: a bulk
// `insert ... select` of a million rows costs one update per account touched. The bump runs inside the
// writing transaction, so every snapshot sees an invoice change and its bump together or neither.
// PostgreSQL 15 allows transition tables only on single-event triggers: one trigger per event.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts add column invoices_version bigint not null default 0`.execute(db);
  await sql`
    create function invoices_bump_version_inserted() returns trigger language plpgsql as $$
    begin
      update accounts set invoices_version = invoices_version + 1 where id in (select distinct account_id from inserted_rows);
      return null;
    end $$`.execute(db);
  await sql`
    create function invoices_bump_version_deleted() returns trigger language plpgsql as $$
    begin
      update accounts set invoices_version = invoices_version + 1 where id in (select distinct account_id from deleted_rows);
      return null;
    end $$`.execute(db);
  // Both sides: an update that moved an invoice to another account changes what both accounts hold.
  await sql`
    create function invoices_bump_version_updated() returns trigger language plpgsql as $$
    begin
      update accounts set invoices_version = invoices_version + 1
      where id in (select account_id from updated_old union select account_id from updated_new);
      return null;
    end $$`.execute(db);
  // TRUNCATE has no transition table: every account's invoices may be gone.
  await sql`
    create function invoices_bump_version_truncated() returns trigger language plpgsql as $$
    begin
      update accounts set invoices_version = invoices_version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger invoices_version_after_insert after insert on invoices
    referencing new table as inserted_rows for each statement execute function invoices_bump_version_inserted()`.execute(db);
  await sql`
    create trigger invoices_version_after_delete after delete on invoices
    referencing old table as deleted_rows for each statement execute function invoices_bump_version_deleted()`.execute(db);
  await sql`
    create trigger invoices_version_after_update after update on invoices
    referencing old table as updated_old new table as updated_new for each statement execute function invoices_bump_version_updated()`.execute(db);
  await sql`create trigger invoices_version_after_truncate after truncate on invoices for each statement execute function invoices_bump_version_truncated()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'delete', 'update', 'truncate']) {
    await sql`drop trigger if exists ${sql.id(`invoices_version_after_${event}`)} on invoices`.execute(db);
  }
  for (const event of ['inserted', 'deleted', 'updated', 'truncated']) {
    await sql`drop function if exists ${sql.id(`invoices_bump_version_${event}`)}()`.execute(db);
  }
  await sql`alter table accounts drop column if exists invoices_version`.execute(db);
}
