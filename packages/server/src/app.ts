// Composition of the HTTP service. The order of the middleware IS the order of the checks the product
// decisions prescribe: request id and logs for everything; security headers and CORS; the answers
// outside the API; then per operation: which operation (404/405; HEAD of a GET is that GET), token
// (401), rate limit (429), scope (403), body (415 for a media type the operation does not take,
// 413/400 malformed; each media type read by its kind: JSON, text, bytes, multipart; bounded before
// validation), the deprecation headers of what the request uses, query parameters in the shapes
// their style writes, shape (400) by the validator, strings the database cannot store (400), If-Match
// (400 when malformed), Idempotency-Key (stored answer replayed, 422, 409), the handler
// (404/409/412...), its answer checked and sent as the spec carries it, and one error mapper at the
// end. The operation is resolved once, by the first step of that chain; the others read its generated
// entry. Every fact comes from the served contract (the product's unless told: `contract`).
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
import { requireJsonObjectBody } from './http/json-object-body.js';
import { httpLogging } from './http/logging.js';
import { handlerContexts } from './http/handler-context.js';
import { operationResolver } from './http/operation-resolver.js';
import { outsideApiRoutes } from './http/outside-api.js';
import { checkPathParams } from './http/path-ids.js';
import { rejectNulCharacters } from './http/nul-characters.js';
import { httpMetrics } from './http/metrics.js';
import { styledQueryParams } from './http/query-params.js';
import { memoryStores, rateLimits, type RateLimitStoreFactory } from './http/rate-limit.js';
import { requestBody } from './http/request-body.js';
import { requestId } from './http/request-id.js';
import { operationRouter, type ServedHandlers } from './http/router.js';
import { crossOrigin, securityHeaders } from './http/security-headers.js';
import { sequence } from './http/sequence.js';
import { productContract, type ServedContract } from './http/served-contract.js';
import { checkedAsGet } from './http/head-as-get.js';
import { specValidator } from './http/validator.js';
import { warmUpValidators } from './http/warm-up.js';
import { checkKeyPatterns, idempotency, idempotencyKeyFormat } from './idempotency/index.js';
import { preconditionHeaders } from './preconditions/index.js';
import type { Metrics } from './runtime/metrics.js';

/**
 * The product's handlers for the product's contract (a missing handler is a compile error), or a
 * contract of another spec with handlers for its operations (the tests' fixture spec of shapes).
 */
export type ServedApi = { contract?: undefined; handlers: HandlerMap<RequestContext> } | { contract: ServedContract; handlers: ServedHandlers };

export type AppOptions = ServedApi & {
  config: Config;
  database: Database;
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
  /** CORS origins in place of the configured ones (the stateful mock allows every local origin). */
  corsOrigins?: ReadonlyArray<string | RegExp>;
  /**
   * Runs after CORS and before anything else answers: routes of a development mode (the stateful
   * mock's `POST /__mock/reset`); what it passes on goes through the API's checks as always.
   */
  beforeApi?: RequestHandler;
};

export async function createApp(options: AppOptions): Promise<Express> {
  const { config, database, logger } = options;
  const contract = options.contract ?? productContract;
  const { operations, responseValidators } = contract;
  const handlers: ServedHandlers = options.handlers;
  checkKeyPatterns(Object.values(operations));
  // Loading the verification key (or preparing the JWKS client) before the first request means a
  // broken key file stops the start, not every request.
  const verifier = await createTokenVerifier(config.auth);
  const validators = specValidator({ requestValidation: config.requestValidation, validatorSpecPath: contract.validatorSpecPath });
  if (options.warmUp ?? true) {
    const warmed = await warmUpValidators(validators, operations);
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
  const cors = crossOrigin(options.corsOrigins ?? config.corsOrigins, Object.values(operations));
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
      operationResolver(operations),
      authenticate(verifier),
      rateLimits(config.rateLimit, options.rateLimitStore ?? memoryStores(), logger, options.metrics?.rateLimitRefused),
      requireScopes(),
      // The media types the operation takes (415 for another), each read by its kind under the spec's limits.
      requestBody({ operations, fileLimitBytes: config.uploads.fileLimitBytes }),
      boundedBody(),
      // Path ids as written (`1e3` is not 1000): the validator would coerce them.
      checkPathParams(),
      // `"text"`, `42`, `[1]`: valid JSON, but not the object the operation takes.
      requireJsonObjectBody(),
      // Deprecation, Sunset and Link on answers to requests that use something the spec deprecates.
      deprecationHeaders(),
      idempotencyKeyFormat(),
      // Arrays and deepObjects as their style writes them, for the validator and the handler.
      styledQueryParams(),
      // The validator; HEAD of a GET is checked as that GET.
      ...validators.map(checkedAsGet),
      rejectNulCharacters(),
      preconditionHeaders(),
      // Last before the handler: a replayed answer comes from a request that passed every check above.
      idempotency({ database, logger, ttlHours: config.idempotency.ttlHours }),
      operationRouter(handlers, handlerContexts({ database, logger, checkAnswers: config.responseValidation, validators: responseValidators }), {
        operations,
        validators: responseValidators,
        checkAnswers: config.responseValidation,
      }),
    ]),
  );
  app.use(errorMapper({ checkAnswers: config.responseValidation, validators: responseValidators }));
  return app;
}
