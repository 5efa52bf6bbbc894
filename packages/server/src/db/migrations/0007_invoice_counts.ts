// Per-account counts of invoices by (status, currency), kept exact by the database itself, so that a
// search whose criteria only name statuses and currencies answers its exact total as a sum of a few
// counts instead of counting the account's invoices (search/total-plan.ts).
//
// Statement-level triggers with transition tables: whoever writes invoices (the service, a migration,
// a person with psql), the writing statement adds its net change per (account, status, currency) in
// its own transaction, so every snapshot sees an invoice change and its count together or neither; a
// rolled-back write takes its change back with it. A bulk statement costs one upsert per group it
// changed, not one per row, and an update that changes no status, currency or account writes nothing.
//
// Locks: every change first locks the accounts it concerns, in id order (FOR NO KEY UPDATE, the lock
// the version bump of migration 0006 takes anyway, and which the service takes before any invoice
// write: db/accounts.ts), then upserts its counts in key order. A count row is thus only ever written
// under its account's row lock, so writers of one account queue on that one lock as they already did,
// never on a count row, and two statements of several accounts lock them in one order: no cycle. These
// triggers are named so that they run before 0006's (same event: alphabetical order), so even a raw
// statement spanning accounts takes the accounts in id order before the version bump updates them.
//
// The table's own row type carries the changes (`invoices` is then the number to add): one helper
// applies them, whichever event made them. PostgreSQL 15 allows transition tables only on
// single-event triggers: one trigger per event.
import { sql, type Kysely } from 'kysely';

const triggers = [
  {
    event: 'insert',
    transition: sql`referencing new table as inserted_rows`,
    changes: sql`select row(account_id, status, currency, count(*))::invoice_counts from inserted_rows group by account_id, status, currency`,
  },
  {
    event: 'delete',
    transition: sql`referencing old table as deleted_rows`,
    changes: sql`select row(account_id, status, currency, -count(*))::invoice_counts from deleted_rows group by account_id, status, currency`,
  },
  {
    // Old rows leave their group, new rows join theirs; groups whose net change is 0 are left alone.
    event: 'update',
    transition: sql`referencing old table as updated_old new table as updated_new`,
    changes: sql`
      select row(account_id, status, currency, sum(change))::invoice_counts
      from (
        select account_id, status, currency, -1 as change from updated_old
        union all
        select account_id, status, currency, 1 from updated_new
      ) moved
      group by account_id, status, currency
      having sum(change) <> 0`,
  },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // No invoice write between counting the existing invoices and the triggers taking over; released
  // when the migration's transaction commits.
  await sql`lock table invoices in share row exclusive mode`.execute(db);
  await sql`
    create table invoice_counts (
      account_id bigint not null references accounts (id) on delete cascade,
      status text collate "C" not null,
      currency text collate "C" not null,
      -- No check >= 0: a count made wrong by hand must not block the invoice writes that follow;
      -- pnpm db:check-totals finds and repairs it.
      invoices bigint not null,
      primary key (account_id, status, currency)
    )`.execute(db);
  await sql`
    create function invoice_counts_add(changes invoice_counts[]) returns void language plpgsql as $$
    begin
      if cardinality(changes) = 0 then
        return;
      end if;
      perform 1 from accounts where id in (select account_id from unnest(changes)) order by id for no key update;
      insert into invoice_counts as kept (account_id, status, currency, invoices)
        select account_id, status, currency, invoices from unnest(changes) order by account_id, status, currency
        on conflict (account_id, status, currency) do update set invoices = kept.invoices + excluded.invoices;
    end $$`.execute(db);
  for (const { event, transition, changes } of triggers) {
    const name = `invoice_counts_after_${event}`;
    await sql`
      create function ${sql.id(name)}() returns trigger language plpgsql as $$
      begin
        perform invoice_counts_add(array(${changes}));
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.id(name)} after ${sql.raw(event)} on invoices ${transition} for each statement execute function ${sql.id(name)}()`.execute(
      db,
    );
  }
  // TRUNCATE has no transition table, and leaves no invoice of any account.
  await sql`create function invoice_counts_after_truncate() returns trigger language plpgsql as $$ begin delete from invoice_counts; return null; end $$`.execute(
    db,
  );
  await sql`create trigger invoice_counts_after_truncate after truncate on invoices for each statement execute function invoice_counts_after_truncate()`.execute(
    db,
  );
  await sql`
    insert into invoice_counts (account_id, status, currency, invoices)
    select account_id, status, currency, count(*) from invoices group by account_id, status, currency`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'delete', 'update', 'truncate']) {
    await sql`drop trigger if exists ${sql.id(`invoice_counts_after_${event}`)} on invoices`.execute(db);
    await sql`drop function if exists ${sql.id(`invoice_counts_after_${event}`)}()`.execute(db);
  }
  await sql`drop function if exists invoice_counts_add(invoice_counts[])`.execute(db);
  await sql`drop table if exists invoice_counts`.execute(db);
}
