// The hand-written half of the client: how one call travels. It sends the request through
// openapi-fetch, adds the `X-Request-Id` and the headers of the operation's own options
// (`Idempotency-Key`, `If-Match`), retries what may be repeated, and shapes the answer into an
// ApiResult. The operation functions that use it are generated (../generated/operations.ts), and
// tell it which of those headers their operation declares. Each attempt has a time limit
// (./timeout.ts); a 401 may be answered with a fresh token and replayed once (./unauthorized.ts);
// the final answer may be checked against the spec (./response-validation.ts).
import type { Middleware } from 'openapi-fetch';
import { operationTable, type ApiError, type OperationId } from '@invoice-api/contract';
import type { DeprecationNotifier } from './deprecation.js';
import { NetworkError } from './network.js';
import { UnexpectedResponseError, type ApiResult } from './result.js';
import { ResponseValidationError, type ResponseCheck } from './response-validation.js';
import { isSafeOperation, retryableStatuses, retryDelay, type RetryPolicy } from './retry.js';
import { RequestTimeoutError, attemptSignal, settleByAbort, sleepUnlessAborted } from './timeout.js';
import type { ErrorData, SuccessData, SuccessEtag } from './types.js';
import type { TraceContextSource } from './trace-context.js';
import type { TokenRefresher } from './unauthorized.js';

export interface TokenSource {
  /** A fixed access token, sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Asked for the token before every request (a refreshing token source); not with `token`. */
  getToken?: (() => string | Promise<string>) | undefined;
}

/** Per-call options, the last argument of every operation function. */
export interface CallOptions {
  /** Send this `X-Request-Id` instead of a fresh one. */
  requestId?: string;
  /** Extra headers, e.g. `Prefer: code=404` against the Prism mock. */
  headers?: Record<string, string>;
  /**
   * Aborts the call (every attempt and the waits between them); the call then rejects with the
   * signal's reason, as fetch does, never retried and never taken for a timeout.
   */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take instead of the client's `timeout`; `false` or 0: no limit. */
  timeout?: number | false;
}

/** The call option of operations that declare an `Idempotency-Key` (create and issue). */
export interface IdempotencyKeyOption {
  /**
   * Send this `Idempotency-Key` instead of a fresh one, e.g. to resend a write whose outcome is
   * unknown with the key of the first try (`NetworkError.call.idempotencyKey`, `result.idempotencyKey`).
   * Every retry of the call sends the same key.
   */
  idempotencyKey?: string;
}

/** The call option of operations that declare an `If-Match` (the updates). */
export interface IfMatchOption {
  /**
   * Apply the update only to this version: the `etag` of an earlier answer (or `*`). A stale tag is
   * answered `412 precondition_failed` and nothing is written.
   */
  ifMatch?: string;
}

/** The header names, from the operation's header parameters in the spec, that the options go into. */
export interface HeaderPlan {
  idempotencyKey?: string;
  ifMatch?: string;
}

/** Makes what a call sends fresh unless the caller gives it. */
export interface CallIdSources {
  requestId: () => string;
  idempotencyKey: () => string;
  /** The caller's trace context headers (trace-context.ts); absent: none sent. */
  traceContext?: TraceContextSource | undefined;
}

/** What openapi-fetch answers, narrowed to the operation's documented bodies. */
type RawResult<K extends OperationId> = { data: SuccessData<K>; error?: never; response: Response } | { data?: never; error: ErrorData<K>; response: Response };

/** Sends one attempt of an operation's request with the headers and signal the transport adds. */
export type Send<K extends OperationId> = (init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<RawResult<K>>;

/** Runs one call of an operation: every attempt, then the typed result. */
export type Invoke = <K extends OperationId>(
  operationId: K,
  callOptions: (CallOptions & IdempotencyKeyOption & IfMatchOption) | undefined,
  send: Send<K>,
  headerPlan?: HeaderPlan,
) => Promise<ApiResult<K>>;

/** The one 409 that asks to be retried: the first request with this key is still running. */
const keyInUse: ApiError['error'] = 'idempotency_key_in_use';

/**
 * Sets `Authorization: Bearer ...` on every request that does not carry one already (a replay after a
 * 401 carries its fresh token; a caller may set its own in `headers`). `refreshed` is the token the
 * `onUnauthorized` hook brought last, which replaces a fixed `token`; `getToken` stays the source
 * where it is given (make it return the refreshed token too).
 */
export function authMiddleware(options: TokenSource, refreshed: () => string | undefined = () => undefined): Middleware {
  const { token, getToken } = options;
  return {
    // Asked on every attempt, so a token refreshed while the client waits for a retry is used.
    async onRequest({ request }) {
      if (request.headers.has('Authorization')) return request;
      const value = getToken ? await getToken() : (refreshed() ?? token);
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  };
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether an answer is worth another attempt of a call that may be repeated: 429 and 503 (decided
 * before the body: a 503 page from a load balancer counts too), and, for a keyed call, the 409 that
 * says the first request with the key is still running (its retry gets the stored answer).
 */
function asksForRetry(status: number, error: unknown, keyed: boolean): boolean {
  if (retryableStatuses.has(status)) return true;
  return keyed && status === 409 && isJsonObject(error) && (error as { error?: unknown }).error === keyInUse;
}

/** What a call does besides sending: time limits, the 401 refresh, the check of answers. */
export interface CallRuntime {
  /** Milliseconds each attempt may take; undefined or 0: no limit. */
  timeoutMs: number | undefined;
  /** Present when the client has an `onUnauthorized` hook. */
  refresher: TokenRefresher | undefined;
  /** Present when the client validates answers; `report` undefined means throw. */
  validation: { check: ResponseCheck; report: ((error: ResponseValidationError) => void) | undefined } | undefined;
  /** Told of every answer, to warn once per deprecated operation (deprecation.ts). */
  deprecation?: DeprecationNotifier;
}

const noRuntime: CallRuntime = { timeoutMs: undefined, refresher: undefined, validation: undefined };

export function createInvoke(policy: RetryPolicy, sources: CallIdSources, runtime: CallRuntime = noRuntime): Invoke {
  return async function call<K extends OperationId>(
    operationId: K,
    callOptions: (CallOptions & IdempotencyKeyOption & IfMatchOption) | undefined,
    send: Send<K>,
    plan: HeaderPlan = {},
  ): Promise<ApiResult<K>> {
    const requestId = callOptions?.requestId ?? sources.requestId();
    // One key per logical call, made before the first attempt and sent unchanged on every retry: the
    // service then runs the write at most once, however many attempts reach it.
    const idempotencyKey = plan.idempotencyKey === undefined ? undefined : (callOptions?.idempotencyKey ?? sources.idempotencyKey());
    const headers: Record<string, string> = { ...sources.traceContext?.(), ...callOptions?.headers, 'X-Request-Id': requestId };
    if (plan.idempotencyKey !== undefined && idempotencyKey !== undefined) headers[plan.idempotencyKey] = idempotencyKey;
    if (plan.ifMatch !== undefined && callOptions?.ifMatch !== undefined) headers[plan.ifMatch] = callOptions.ifMatch;
    // Repeating is safe for what changes nothing, and for a write that carries its idempotency key.
    const repeatable = isSafeOperation(operationId) || idempotencyKey !== undefined;
    const maxAttempts = repeatable ? policy.maxAttempts : 1;
    const callerSignal = callOptions?.signal;
    const timeoutMs = callOptions?.timeout === undefined ? runtime.timeoutMs : callOptions.timeout || undefined;
    let replayed401 = false;
    // `attempts` counts HTTP requests; `tries` those the retry policy spends (a 401 replay is not one).
    for (let attempts = 1, tries = 1; ; attempts += 1, tries += 1) {
      let answer: RawResult<K>;
      const attempt = attemptSignal(callerSignal, timeoutMs);
      const generation = runtime.refresher?.currentGeneration ?? 0;
      try {
        answer = await settleByAbort(send({ headers, signal: attempt.signal }), attempt.signal);
      } catch (error) {
        attempt.dispose();
        // openapi-fetch parses a success body as JSON; anything else is not an answer the spec allows.
        if (error instanceof SyntaxError) throw new UnexpectedResponseError(operationId, 0, requestId, 'body is not JSON');
        // The caller's abort is theirs: passed through as is, never retried. A timeout is a network
        // failure (nothing is known of what the service did) and is retried like one.
        if (!attempt.timedOut() && !(error instanceof NetworkError)) throw error;
        const delay = tries < maxAttempts ? retryDelay(policy, tries, null) : undefined;
        if (delay === undefined) {
          const failed = { operationId, requestId, idempotencyKey, attempts };
          const { method, url } = error instanceof NetworkError ? error : requestLine(operationId);
          if (attempt.timedOut()) throw new RequestTimeoutError(method, url, timeoutMs ?? 0, failed);
          throw new NetworkError(method, url, error instanceof NetworkError ? error.cause : error, failed);
        }
        await sleepUnlessAborted(policy.sleep, delay, callerSignal);
        continue;
      }
      attempt.dispose();
      const { response } = answer;
      runtime.deprecation?.(operationId, response);
      if (response.status === 401 && repeatable && !replayed401 && runtime.refresher) {
        replayed401 = true;
        const fresh = await runtime.refresher.freshToken({ operationId, requestId, response }, generation);
        if (fresh !== undefined) {
          headers.Authorization = `Bearer ${fresh}`;
          tries -= 1;
          continue;
        }
      }
      const retry = tries < maxAttempts && asksForRetry(response.status, answer.error, idempotencyKey !== undefined);
      const delay = retry ? retryDelay(policy, tries, response.headers.get('Retry-After')) : undefined;
      if (delay !== undefined) {
        await sleepUnlessAborted(policy.sleep, delay, callerSignal);
        continue;
      }
      const base = {
        operationId,
        status: response.status,
        response,
        requestId,
        attempts,
        idempotencyKey,
        replayed: response.headers.get('Idempotent-Replayed') === 'true',
        etag: response.headers.get('ETag') ?? undefined,
      };
      let result: ApiResult<K>;
      // The spec declares ETag required on the answers that carry one; SuccessEtag says which.
      if (response.ok && answer.data !== undefined) result = { ...base, ok: true, data: answer.data, etag: base.etag as SuccessEtag<K> };
      else if (answer.error === undefined) throw new UnexpectedResponseError(operationId, response.status, requestId, 'empty body');
      else if (!isJsonObject(answer.error)) throw new UnexpectedResponseError(operationId, response.status, requestId, 'error body is not a JSON object');
      else result = { ...base, ok: false, error: answer.error };
      if (runtime.validation) await checkAnswer(runtime.validation, result);
      return result;
    }
  };
}

/**
 * The method and path template of an operation: what a timeout names when no request line is known
 * (a `getToken` or a fetch that ignored the signal, or a body cut off while it was read).
 */
function requestLine(operationId: OperationId): { method: string; url: string } {
  const { method, path } = operationTable[operationId];
  return { method, url: path };
}

/** Validates a final answer: throws a ResponseValidationError, or hands it to the caller's report. */
async function checkAnswer<K extends OperationId>(validation: NonNullable<CallRuntime['validation']>, result: ApiResult<K>): Promise<void> {
  const body: unknown = result.ok ? result.data : result.error;
  const issue = await validation.check(result.operationId, result.status, body);
  if (issue === undefined) return;
  const error = new ResponseValidationError(result.operationId, result.status, result.requestId, issue, body);
  if (!validation.report) throw error;
  validation.report(error);
}
