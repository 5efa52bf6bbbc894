// The service's per-request duties, each by the service's own module (the cheapest implementation of
// it this repository knows), mounted in front of express alone's handler (bare-server.ts,
// BARE_DUTIES). Each rung of the ladder adds duties to the one before, in the order app.ts runs them:
// what a rung costs over the one below is what those duties cost the service, and what the service
// spends over the top rung is its own per-operation work (body reading by media type, path ids,
// deprecation headers, Idempotency-Key, preconditions, the search's parse and statements, the
// cursor, the query builder, the rows' mapping). Imported only when a rung is asked for, so that the
// bare handler loads none of it.
import type pg from 'pg';
import express, { type RequestHandler } from 'express';
import { loadConfig } from '../../server/src/config.js';
import { answerMedia, answerMismatch } from '../../server/src/http/answer-check.js';
import { authenticate, createTokenVerifier, requireScopes } from '../../server/src/http/auth.js';
import { httpLogging } from '../../server/src/http/logging.js';
import { httpMetrics } from '../../server/src/http/metrics.js';
import { operationResolver } from '../../server/src/http/operation-resolver.js';
import { memoryStores, rateLimits } from '../../server/src/http/rate-limit.js';
import { requestId } from '../../server/src/http/request-id.js';
import { securityHeaders } from '../../server/src/http/security-headers.js';
import { sequence } from '../../server/src/http/sequence.js';
import { productContract } from '../../server/src/http/served-contract.js';
import { specValidator } from '../../server/src/http/validator.js';
import { createLogger } from '../../server/src/runtime/logger.js';
import { createMetrics } from '../../server/src/runtime/metrics.js';

/**
 * The rungs, each holding every duty of the one before:
 * - `validator`: express-openapi-validator as the service configures it (behind express.json());
 * - `every request`: + the request id, the log line and the security headers (what the service does
 *   for every request, before it knows the operation);
 * - `guarded`: + the request metrics, the operation's resolution (which the token's scope and the
 *   rate-limit group are read from), the token (verified once, then from the cache), the rate limit
 *   and the scope check;
 * - `answers checked`: + every answer checked against the spec before it is sent, by the validators
 *   compiled at generate time (answer-check.ts): with it, every duty the hand-wired peer carries.
 */
export const dutyRungs = ['validator', 'every request', 'guarded', 'answers checked'] as const;
export type DutyRung = (typeof dutyRungs)[number];

export function isDutyRung(value: string): value is DutyRung {
  return (dutyRungs as readonly string[]).includes(value);
}

/** The middleware of `rung`, in the service's order. Configured by the environment the service reads. */
export async function dutiesOf(rung: DutyRung, pool: pg.Pool): Promise<RequestHandler> {
  const config = loadConfig();
  const { operations } = productContract;
  const validator = specValidator({ requestValidation: true });
  // The service reads a body by its media type (request-body.ts), which needs the resolved operation;
  // express.json() is what the validator's own README puts in front of it.
  const checks: RequestHandler[] = [express.json({ limit: '1mb' }), ...validator];
  if (rung === 'validator') return sequence(checks);
  const logger = createLogger(config.logLevel, config.logFormat);
  const everyRequest: RequestHandler[] = [requestId(), httpLogging(logger), securityHeaders()];
  if (rung === 'every request') return sequence([...everyRequest, ...checks]);
  const metrics = createMetrics({
    engine: 'postgres',
    poolStats: () => ({ max: pool.options.max ?? 10, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  });
  const verifier = await createTokenVerifier(config.auth);
  // `answers checked` adds no middleware: its check runs where the handler sends (answerCheckOf).
  return sequence([
    httpMetrics(metrics),
    ...everyRequest,
    operationResolver(operations),
    authenticate(verifier),
    rateLimits(config.rateLimit, memoryStores(), logger),
    requireScopes(),
    ...checks,
  ]);
}

/** Throws when `body` is not what the spec says `operationId` answers with `status`. */
export type AnswerCheck = (operationId: string, status: number, body: unknown) => void;

/** The answer check of `rung`, which the bare handler runs on every answer before sending it; none below `answers checked`. */
export function answerCheckOf(rung: DutyRung): AnswerCheck | undefined {
  if (rung !== 'answers checked') return undefined;
  const { operations, responseValidators } = productContract;
  return (operationId, status, body) => {
    const operation = operations[operationId];
    if (operation === undefined) throw new Error(`no operation ${operationId} in the product's contract`);
    const mismatch = answerMismatch(responseValidators, operation, status, body, answerMedia(operation, status, undefined));
    if (mismatch !== undefined) throw mismatch;
  };
}
