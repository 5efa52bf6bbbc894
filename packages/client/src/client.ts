// createApiClient: one typed function per operationId, generated from the spec
// (../generated/operations.ts, written by `pnpm generate`), over openapi-fetch and the hand-written
// transport (./transport.ts: token, request id, idempotency key, If-Match, retries, result shape).
import createClient, { type Client } from 'openapi-fetch';
import type { OperationId, paths } from '@invoice-api/contract';
import { operationFunctions } from '../generated/operations.js';
import type { ApiResult } from './result.js';
import { retryPolicy, type RetryOptions } from './retry.js';
import { networkErrors } from './network.js';
import { authMiddleware, createInvoke, type TokenSource } from './transport.js';
import { deprecationNotifier, type OnDeprecation } from './deprecation.js';

export type { CallOptions, IdempotencyKeyOption, IfMatchOption } from './transport.js';

export type ApiClientOptions = TokenSource & {
  /** The API's base URL, e.g. `http://127.0.0.1:4010` for the mock. */
  baseUrl: string;
  /** Injectable fetch (tests, instrumentation). Default: globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retry policy for safe operations and keyed writes; `false` turns retries off. */
  retry?: RetryOptions | false;
  /** Makes the `X-Request-Id` of each call. Default: crypto.randomUUID. */
  requestId?: () => string;
  /** Makes the `Idempotency-Key` of each create and issue call (1 to 255 of `A-Za-z0-9_.:~+/=-`). Default: crypto.randomUUID. */
  idempotencyKey?: () => string;
  /**
   * Told once per operation when a call uses something deprecated: the spec marks the operation
   * deprecated, or the answer carries a `Deprecation` header. Default: one `console.warn` per operation.
   */
  onDeprecation?: OnDeprecation;
};

export function createApiClient(options: ApiClientOptions) {
  if (options.token !== undefined && options.getToken !== undefined) throw new TypeError('createApiClient: give token or getToken, not both');
  const raw: Client<paths> = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const auth = authMiddleware(options);
  if (auth) raw.use(auth);
  raw.use(networkErrors);
  const uuid = () => globalThis.crypto.randomUUID();
  const call = createInvoke(
    retryPolicy(options.retry),
    { requestId: options.requestId ?? uuid, idempotencyKey: options.idempotencyKey ?? uuid },
    deprecationNotifier(options.onDeprecation),
  );
  return {
    /** The underlying openapi-fetch client (same auth middleware), for anything the operation functions do not cover. */
    raw,
    ...operationFunctions(raw, call),
  } satisfies { raw: Client<paths> } & { [K in OperationId]: (...args: never[]) => Promise<ApiResult<K>> };
}

export type ApiClient = ReturnType<typeof createApiClient>;
