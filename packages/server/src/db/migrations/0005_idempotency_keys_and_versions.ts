// Idempotency keys (the stored answer of a write, per account, API key and key, until it expires) and
// a version counter per invoice and delivery, from which their ETag is made: a counter, not
// updated_at, so two changes always give two ETags whatever the clock says.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      account_id bigint not null references accounts (id),
      api_key text not null,
      idempotency_key text not null,
      -- sha256 (hex) of the operation, path and canonical JSON body: the same key with another request is refused.
      fingerprint text not null,
      status smallint not null,
      -- The answer's own headers (Location), as a JSON object of strings.
      headers jsonb not null,
      -- The answer's body as sent, byte for byte (jsonb would reorder its keys).
      body text not null,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      primary key (account_id, api_key, idempotency_key)
    )`.execute(db);
  // The purge deletes the oldest expired rows in bounded batches.
  await sql`create index idempotency_keys_expires_at on idempotency_keys (expires_at)`.execute(db);
  await sql`alter table invoices add column version integer not null default 1`.execute(db);
  await sql`alter table deliveries add column version integer not null default 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists idempotency_keys`.execute(db);
  await sql`alter table invoices drop column if exists version`.execute(db);
  await sql`alter table deliveries drop column if exists version`.execute(db);
}
