// The idempotency_keys table: a stored answer per (account, API key, key), written in the same
// transaction as the write it answers, so a crash leaves both or neither.
//
// Cross-instance "in progress": the transaction that runs a keyed write first takes a transaction-scoped
// advisory lock on the key, without waiting (pg_try_advisory_xact_lock). A second request with the same
// key, on any instance, fails to take it while the first runs and is answered 409; once the first
// commits (row stored) or aborts (nothing stored), the lock is gone. A process killed mid-write loses
// its connection, PostgreSQL aborts its transaction and frees the lock: nothing is stuck "in progress".
import { sql, type Kysely } from 'kysely';
import { compileOnly, rawStatement } from '../db/compile-only.js';
import type { DatabaseSchema } from '../db/schema.js';
import { templateOf } from '../db/statement-template.js';
import { ApiError } from '../errors.js';
import { idempotencyKeyHeader } from './key.js';

/** Who sent which key for which request: what a handler's transaction claims and records. */
export interface IdempotencyClaim {
  accountId: number;
  apiKey: string;
  key: string;
  fingerprint: string;
  /** How long the stored answer is kept. */
  ttlHours: number;
}

/** A handler's answer as the router sends it. */
export interface WriteAnswer {
  status: number;
  headers?: Readonly<Record<string, string>>;
  body?: unknown;
}

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  /** The body's JSON text as first sent. */
  body: string;
}

/** Seed of the advisory-lock hash, so these locks do not share numbers with any other use. */
export const lockSeed = 7_210_431;

// Every keyed write looks its key up, claims it and records its answer: the three statements are
// templates compiled once (statement-template.ts).
const findStoredAnswerStatement = templateOf(['accountId', 'apiKey', 'key'], ({ accountId, apiKey, key }) =>
  compileOnly
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'headers', 'body'])
    .where('account_id', '=', sql<number>`${accountId}`)
    .where('api_key', '=', sql<string>`${apiKey}`)
    .where('idempotency_key', '=', sql<string>`${key}`)
    .where('expires_at', '>', sql<string>`now()`),
);

/** The answer stored for the claim's key, unless it has expired (an expired key counts as new). */
export async function findStoredAnswer(db: Kysely<DatabaseSchema>, claim: IdempotencyClaim): Promise<StoredAnswer | undefined> {
  const { rows } = await db.executeQuery(findStoredAnswerStatement.bind(claim));
  return rows[0];
}

export function keyInUse(): ApiError {
  return new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry it later to get its answer.', {
    field: idempotencyKeyHeader,
    issue: 'is in use by a request still running',
  });
}

export function keyReused(): ApiError {
  return new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different request; use a new key for a new request.', {
    field: idempotencyKeyHeader,
    issue: 'was used for a different request',
  });
}

const claimKeyStatement = templateOf(['name', 'seed', 'accountId', 'apiKey', 'key'], ({ name, seed, accountId, apiKey, key }) =>
  rawStatement(sql<{ locked: boolean; fingerprint: string | null }>`
    select
      pg_try_advisory_xact_lock(hashtextextended(${name}, ${seed})) as locked,
      (select fingerprint from idempotency_keys
        where account_id = ${accountId} and api_key = ${apiKey} and idempotency_key = ${key}
          and expires_at > now()) as fingerprint`),
);

/**
 * First statement of a keyed write's transaction: takes the key's lock or answers 409, and refuses a
 * key whose answer was stored meanwhile (422 for another request; 409 for this one, whose retry then
 * replays). One round trip.
 */
export async function claimKey(trx: Kysely<DatabaseSchema>, claim: IdempotencyClaim): Promise<void> {
  const { rows } = await trx.executeQuery(claimKeyStatement.bind({ ...claim, name: lockName(claim), seed: lockSeed }));
  const row = rows[0];
  if (row === undefined || !row.locked) throw keyInUse();
  if (row.fingerprint !== null) throw row.fingerprint === claim.fingerprint ? keyInUse() : keyReused();
}

const recordAnswerStatement = templateOf(
  ['accountId', 'apiKey', 'key', 'fingerprint', 'status', 'headers', 'body', 'ttlHours'],
  ({ accountId, apiKey, key, fingerprint, status, headers, body, ttlHours }) =>
    rawStatement(sql<{ stored: number }>`
    insert into idempotency_keys (account_id, api_key, idempotency_key, fingerprint, status, headers, body, expires_at)
    values (${accountId}, ${apiKey}, ${key}, ${fingerprint}, ${status}, ${headers}::jsonb, ${body},
      now() + make_interval(hours => ${ttlHours}::integer))
    on conflict (account_id, api_key, idempotency_key) do update set
      fingerprint = excluded.fingerprint, status = excluded.status, headers = excluded.headers,
      body = excluded.body, created_at = now(), expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= now()
    returning 1 as stored`),
);

/**
 * Last statement of a keyed write's transaction: stores its answer (replacing an expired one). Should a
 * live answer exist after all (stored between the claim's snapshot and its lock), the write is rolled
 * back with a 409 rather than done twice.
 */
export async function recordAnswer(trx: Kysely<DatabaseSchema>, claim: IdempotencyClaim, answer: WriteAnswer): Promise<void> {
  const { rows } = await trx.executeQuery(
    recordAnswerStatement.bind({
      ...claim,
      status: answer.status,
      headers: JSON.stringify(answer.headers ?? {}),
      body: JSON.stringify(answer.body ?? null),
    }),
  );
  if (rows.length === 0) throw keyInUse();
}

/** Deletes up to `limit` expired keys, oldest first; answers how many. Bounded, so it never holds the database long. */
export async function purgeExpiredKeys(db: Kysely<DatabaseSchema>, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= now() order by expires_at limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** The advisory lock's name; its number is `hashtextextended(name, lockSeed)`. Exported for tests that hold it. */
export function lockName(claim: Pick<IdempotencyClaim, 'accountId' | 'apiKey' | 'key'>): string {
  return `idempotency:${claim.accountId}:${claim.apiKey.length}:${claim.apiKey}:${claim.key}`;
}
