// What every operation handler receives besides its validated request: who calls, and the tools
// to answer. Built per request by the HTTP layer (http/), consumed by operations/.
import type { Logger } from 'pino';
import type { Database } from './db/database.js';
import type { IdempotencyClaim } from './idempotency/store.js';
import type { IfMatch, IfNoneMatch } from './preconditions/entity-tag.js';

export interface Caller {
  /** The token's `account_id`: every read and write is confined to it. */
  accountId: number;
  /** The API key: the token's `client_id`, else its `sub`. Rate limits count per key. */
  apiKey: string;
  /** Scopes granted by the token's `scope` claim. */
  scopes: ReadonlySet<string>;
}

export interface RequestContext {
  /** Absent only for operations the spec marks as needing no token (the health check). */
  caller: Caller | undefined;
  db: Database;
  log: Logger;
  requestId: string;
  /** The request's Idempotency-Key claim, on the operations that honour one (idempotency/). */
  idempotency?: IdempotencyClaim;
  /** The request's If-Match condition, when it sent one (preconditions/). */
  ifMatch?: IfMatch;
  /** The request's If-None-Match condition, when it sent one (preconditions/): a read may answer 304. */
  ifNoneMatch?: IfNoneMatch;
  /**
   * Throws when an answer does not match the spec for this operation (http/answer-check.ts); absent
   * when answers are not checked. A keyed write checks its answer before storing it for replays.
   */
  checkAnswer?: (status: number, body: unknown) => void;
}
