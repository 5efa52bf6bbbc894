// The hand-written half of the client: how one call travels. It sends the request through
// openapi-fetch, adds the `X-Request-Id`, retries safe operations on 429/503, and shapes the answer
// into an ApiResult. The operation functions that use it are generated (../generated/operations.ts).
import type { Middleware } from 'openapi-fetch';
import type { OperationId } from '@invoice-api/contract';
import { UnexpectedResponseError, type ApiResult } from './result.js';
import { isSafeOperation, retryableStatuses, retryDelay, type RetryPolicy } from './retry.js';
import type { ErrorData, SuccessData } from './types.js';

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

/** What openapi-fetch answers, narrowed to the operation's documented bodies. */
type RawResult<K extends OperationId> =
  | { data: SuccessData<K>; error?: never; response: Response }
  | { data?: never; error: ErrorData<K>; response: Response };

/** Sends one attempt of an operation's request with the headers and signal the transport adds. */
export type Send<K extends OperationId> = (init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<RawResult<K>>;

/** Runs one call of an operation: every attempt, then the typed result. */
export type Invoke = <K extends OperationId>(operationId: K, callOptions: CallOptions | undefined, send: Send<K>) => Promise<ApiResult<K>>;

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

export function createInvoke(policy: RetryPolicy, makeRequestId: () => string): Invoke {
  return async function call<K extends OperationId>(operationId: K, callOptions: CallOptions | undefined, send: Send<K>): Promise<ApiResult<K>> {
    const requestId = callOptions?.requestId ?? makeRequestId();
    const headers = { ...callOptions?.headers, 'X-Request-Id': requestId };
    const maxAttempts = isSafeOperation(operationId) ? policy.maxAttempts : 1;
    for (let attempt = 1; ; attempt += 1) {
      let answer: RawResult<K>;
      try {
        answer = await send({ headers, ...(callOptions?.signal ? { signal: callOptions.signal } : {}) });
      } catch (error) {
        // openapi-fetch parses a success body as JSON; anything else is not an answer the spec allows.
        if (error instanceof SyntaxError) throw new UnexpectedResponseError(operationId, 0, requestId, 'body is not JSON');
        throw error;
      }
      const { response } = answer;
      // Decided before looking at the body: a 503 page from a load balancer is worth a retry too.
      const delay = attempt < maxAttempts && retryableStatuses.has(response.status) ? retryDelay(policy, attempt, response.headers.get('Retry-After')) : undefined;
      if (delay !== undefined) {
        await policy.sleep(delay);
        continue;
      }
      const base = { operationId, status: response.status, response, requestId, attempts: attempt };
      if (response.ok && answer.data !== undefined) return { ...base, ok: true, data: answer.data };
      if (answer.error === undefined) throw new UnexpectedResponseError(operationId, response.status, requestId, 'empty body');
      if (!isJsonObject(answer.error)) throw new UnexpectedResponseError(operationId, response.status, requestId, 'error body is not a JSON object');
      return { ...base, ok: false, error: answer.error };
    }
  };
}
