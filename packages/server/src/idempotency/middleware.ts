// The HTTP side of Idempotency-Key, after validation and before the handler, for the operations that
// honour it: a malformed key is 400; a key whose answer is stored is answered from the store (the same
// request: replayed with `Idempotent-Replayed: true`; another request: 422); a key already running in
// this process is 409 at once; otherwise the handler gets the claim (context.idempotency) and its
// transaction claims the key across instances and records the answer (write-once.ts).
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { requestFingerprint } from './fingerprint.js';
import { isIdempotentOperation, parseIdempotencyKey } from './key.js';
import { expiredKeyPurger, type ExpiredKeyPurger, type PurgeOptions } from './purge.js';
import { findStoredAnswer, keyInUse, keyReused, type IdempotencyClaim, type StoredAnswer } from './store.js';
import '../http/locals.js';
import { inSpan } from '../telemetry/spans.js';

declare global {
  namespace Express {
    interface Locals {
      /** The request's Idempotency-Key claim, for the handler's transaction (idempotency/). */
      idempotency?: IdempotencyClaim;
    }
  }
}

export interface IdempotencyOptions {
  database: Database;
  logger: Logger;
  /** How long an answer is kept (IDEMPOTENCY_TTL_HOURS). */
  ttlHours: number;
  purge?: PurgeOptions;
}

export interface IdempotencyMiddleware extends RequestHandler {
  purger: ExpiredKeyPurger;
}

/**
 * A malformed Idempotency-Key is 400 with a message that says what a key is, ahead of the validator
 * (whose message would quote the spec's regular expression).
 */
export function idempotencyKeyFormat(): RequestHandler {
  return (req, res, next) => {
    const { operation } = res.locals;
    if (operation === undefined || !isIdempotentOperation(operation)) {
      next();
      return;
    }
    try {
      parseIdempotencyKey(operation, req.headers['idempotency-key']);
      next();
    } catch (error) {
      next(error);
    }
  };
}

export function idempotency(options: IdempotencyOptions): IdempotencyMiddleware {
  // Keys being processed by this process. On PGlite (one process by the single-writer rule, and one
  // connection on which transactions queue) this is what makes a concurrent repeat a 409 rather than a
  // wait; on PostgreSQL it saves the database a lock attempt, the advisory lock does the rest.
  const inFlight = new Set<string>();
  const purger = expiredKeyPurger(options.database, options.logger, options.purge);

  const middleware: RequestHandler = (req, res, next) => {
    const { operation, caller } = res.locals;
    if (operation === undefined || caller === undefined || !isIdempotentOperation(operation)) {
      next();
      return;
    }
    let key: string | undefined;
    try {
      key = parseIdempotencyKey(operation, req.headers['idempotency-key']);
    } catch (error) {
      next(error);
      return;
    }
    if (key === undefined) {
      next();
      return;
    }
    const slot = JSON.stringify([caller.accountId, caller.apiKey, key]);
    if (inFlight.has(slot)) {
      next(keyInUse());
      return;
    }
    // Taken before the fingerprint, which waits for a file's bytes to be hashed: a repeat that arrives
    // meanwhile is 409 as it would be at any later point.
    inFlight.add(slot);
    res.once('close', () => inFlight.delete(slot));
    const lookUp = async (): Promise<{ claim: IdempotencyClaim; stored: StoredAnswer | undefined }> => {
      const claim: IdempotencyClaim = {
        accountId: caller.accountId,
        apiKey: caller.apiKey,
        key,
        fingerprint: await requestFingerprint(operation.operationId, req.path, req.body),
        ttlHours: options.ttlHours,
      };
      const stored = await inSpan('idempotency.lookup', { 'openapi.operation_id': operation.operationId }, () => findStoredAnswer(options.database.db, claim));
      return { claim, stored };
    };
    lookUp().then(({ claim, stored }) => {
      if (stored === undefined) {
        res.locals.idempotency = claim;
        purger.poke();
        next();
      } else if (stored.fingerprint !== claim.fingerprint) {
        next(keyReused());
      } else {
        replay(res, stored);
      }
    }, next);
  };
  return Object.assign(middleware, { purger });
}

/** Sends the stored answer again, marked as a replay; it was checked against the spec before it was stored (write-once.ts). */
function replay(res: Response, stored: StoredAnswer): void {
  res.status(stored.status);
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.json(JSON.parse(stored.body));
}
