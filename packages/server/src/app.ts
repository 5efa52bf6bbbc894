// Composition of the HTTP service. The order of the middleware IS the order of the checks the product
// decisions prescribe: request id and logs for everything; security headers and CORS; the answers
// outside the API; then per operation: which operation (404/405), token (401), rate limit (429), scope
// (403), body (413/415/400 malformed; bounded before validation), the deprecation headers of what the request
// uses, shape (400) by the validator, strings
// the database cannot store (400), If-Match (400 when malformed), Idempotency-Key (stored answer replayed,
// 422, 409), the handler (404/409/412...), and one error mapper at the end. The operation is resolved
// once, by the first step of that chain; the others read its generated entry.
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { HandlerMap } from '@invoice-api/contract';
import type { Config } from './config.js';
import type { RequestContext } from './context.js';
import type { Database } from './db/database.js';
import { authenticate, createTokenVerifier, requireScopes } from './http/auth.js';
import { boundedBody } from './http/bounded-body.js';
import { deprecationHeaders } from './http/deprecation.js';
import { errorMapper } from './http/errors.js';
import { jsonBody } from './http/json-body.js';
import { requireJsonObjectBody } from './http/json-object-body.js';
import { httpLogging } from './http/logging.js';
import { handlerContexts } from './http/handler-context.js';
import { operationResolver } from './http/operation-resolver.js';
import { outsideApiRoutes } from './http/outside-api.js';
import { checkPathParams } from './http/path-ids.js';
import { rejectNulCharacters } from './http/nul-characters.js';
import { httpMetrics } from './http/metrics.js';
import { memoryStores, rateLimits, type RateLimitStoreFactory } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { operationRouter } from './http/router.js';
import { crossOrigin, securityHeaders } from './http/security-headers.js';
import { sequence } from './http/sequence.js';
import { specValidator } from './http/validator.js';
import { warmUpValidators } from './http/warm-up.js';
import { idempotency, idempotencyKeyFormat } from './idempotency/index.js';
import { ifMatchCondition } from './preconditions/index.js';
import type { Metrics } from './runtime/metrics.js';

export interface AppOptions {
  config: Config;
  database: Database;
  handlers: HandlerMap<RequestContext>;
  logger: Logger;
  /** Where rate-limit counters live; default: this process's memory. See `redisStores`. */
  rateLimitStore?: RateLimitStoreFactory;
  /**
   * Compile every validator before the app is returned (warm-up.ts), so that no request, the first
   * ones included, waits for a compilation. Default on; tests that do not care may skip it.
   */
  warmUp?: boolean;
  /** Count requests, 429s and database outages in these metrics (METRICS_PORT); absent: none kept. */
  metrics?: Metrics;
  /** Replaces the CORS step built from `CORS_ORIGINS` (the stateful mock allows every local origin). */
  crossOrigin?: RequestHandler;
  /**
   * Runs after CORS and before anything else answers: routes of a development mode (the stateful
   * mock's `POST /__mock/reset`); what it passes on goes through the API's checks as always.
   */
  beforeApi?: RequestHandler;
}

export async function createApp(options: AppOptions): Promise<Express> {
  const { config, database, handlers, logger } = options;
  // Loading the verification key (or preparing the JWKS client) before the first request means a
  // broken key file stops the start, not every request.
  const verifier = await createTokenVerifier(config.auth);
  const validators = specValidator({ requestValidation: config.requestValidation });
  if (options.warmUp ?? true) {
    const warmed = await warmUpValidators(validators);
    logger.info(warmed, 'validators compiled');
  }

  const app = express();
  app.disable('x-powered-by');
  // Answers are computed per request (searches are POSTs); an ETag would only cost a hash.
  app.set('etag', false);
  // Flat query strings (`?limit=10`): the spec has no nested query parameters, and the validator
  // checks what this parser produces.
  app.set('query parser', 'simple');

  // Every request, the answers outside the API included: metrics, request id, its log line, security
  // headers, CORS, and the development routes of the stateful mock.
  const cors = options.crossOrigin ?? crossOrigin(config.corsOrigins);
  app.use(
    sequence([
      ...(options.metrics === undefined ? [] : [httpMetrics(options.metrics)]),
      requestId(),
      httpLogging(logger),
      securityHeaders(),
      ...(cors === undefined ? [] : [cors]),
      ...(options.beforeApi === undefined ? [] : [options.beforeApi]),
    ]),
  );

  app.use(outsideApiRoutes());

  app.use(
    sequence([
      // The one match of method and path: every later step reads the operation's generated entry from it.
      operationResolver(),
      authenticate(verifier),
      rateLimits(config.rateLimit, options.rateLimitStore ?? memoryStores(), logger, options.metrics?.rateLimitRefused),
      requireScopes(),
      jsonBody(),
      boundedBody(),
      // Path ids as written (`1e3` is not 1000): the validator would coerce them.
      checkPathParams(),
      // `"text"`, `42`, `[1]`: valid JSON, but not the object the operation takes.
      requireJsonObjectBody(),
      // Deprecation, Sunset and Link on answers to requests that use something the spec deprecates.
      deprecationHeaders(),
      idempotencyKeyFormat(),
      ...validators,
      rejectNulCharacters(),
      ifMatchCondition(),
      // Last before the handler: a replayed answer comes from a request that passed every check above.
      idempotency({ database, logger, ttlHours: config.idempotency.ttlHours }),
      operationRouter(handlers, handlerContexts({ database, logger, checkAnswers: config.responseValidation }), {
        checkAnswers: config.responseValidation,
      }),
    ]),
  );
  app.use(errorMapper({ checkAnswers: config.responseValidation }));
  return app;
}
