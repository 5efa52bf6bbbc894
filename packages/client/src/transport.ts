// The hand-written half of the client: how one call travels. It sends the request through
// openapi-fetch, adds the `X-Request-Id` and the headers of the operation's own options
// (`Idempotency-Key`, `If-Match`), retries what may be repeated, and shapes the answer into an
// ApiResult. The operation functions that use it are generated (../generated/operations.ts), and
// tell it which of those headers their operation declares.
import type { Middleware } from 'openapi-fetch';
import type { ApiError, OperationId } from '@invoice-api/contract';
import type { DeprecationNotifier } from './deprecation.js';
import { NetworkError } from './network.js';
import { UnexpectedResponseError, type ApiResult } from './result.js';
import { isSafeOperation, retryableStatuses, retryDelay, type RetryPolicy } from './retry.js';
import type { ErrorData, SuccessData, SuccessEtag } from './types.js';

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
  signal?: AbortSignal;
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

export function authMiddleware(options: TokenSource): Middleware | undefined {
  const { token, getToken } = options;
  if (token === undefined && getToken === undefined) return undefined;
  return {
    // Asked on every attempt, so a token refreshed while the client waits for a retry is used.
    async onRequest({ request }) {
      const value = token ?? (await getToken?.());
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

export function createInvoke(policy: RetryPolicy, sources: CallIdSources, deprecation?: DeprecationNotifier): Invoke {
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
    const headers: Record<string, string> = { ...callOptions?.headers, 'X-Request-Id': requestId };
    if (plan.idempotencyKey !== undefined && idempotencyKey !== undefined) headers[plan.idempotencyKey] = idempotencyKey;
    if (plan.ifMatch !== undefined && callOptions?.ifMatch !== undefined) headers[plan.ifMatch] = callOptions.ifMatch;
    // Repeating is safe for what changes nothing, and for a write that carries its idempotency key.
    const maxAttempts = isSafeOperation(operationId) || idempotencyKey !== undefined ? policy.maxAttempts : 1;
    for (let attempt = 1; ; attempt += 1) {
      let answer: RawResult<K>;
      try {
        answer = await send({ headers, ...(callOptions?.signal ? { signal: callOptions.signal } : {}) });
      } catch (error) {
        // openapi-fetch parses a success body as JSON; anything else is not an answer the spec allows.
        if (error instanceof SyntaxError) throw new UnexpectedResponseError(operationId, 0, requestId, 'body is not JSON');
        if (!(error instanceof NetworkError)) throw error;
        const delay = attempt < maxAttempts ? retryDelay(policy, attempt, null) : undefined;
        if (delay === undefined) throw new NetworkError(error.method, error.url, error.cause, { operationId, requestId, idempotencyKey, attempts: attempt });
        await policy.sleep(delay);
        continue;
      }
      const { response } = answer;
      deprecation?.(operationId, response);
      const retry = attempt < maxAttempts && asksForRetry(response.status, answer.error, idempotencyKey !== undefined);
      const delay = retry ? retryDelay(policy, attempt, response.headers.get('Retry-After')) : undefined;
      if (delay !== undefined) {
        await policy.sleep(delay);
        continue;
      }
      const base = {
        operationId,
        status: response.status,
        response,
        requestId,
        attempts: attempt,
        idempotencyKey,
        replayed: response.headers.get('Idempotent-Replayed') === 'true',
        etag: response.headers.get('ETag') ?? undefined,
      };
      // The spec declares ETag required on the answers that carry one; SuccessEtag says which.
      if (response.ok && answer.data !== undefined) return { ...base, ok: true, data: answer.data, etag: base.etag as SuccessEtag<K> };
      if (answer.error === undefined) throw new UnexpectedResponseError(operationId, response.status, requestId, 'empty body');
      if (!isJsonObject(answer.error)) throw new UnexpectedResponseError(operationId, response.status, requestId, 'error body is not a JSON object');
      return { ...base, ok: false, error: answer.error };
    }
  };
}
