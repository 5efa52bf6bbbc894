// createApiClient: one typed function per operationId, generated from the spec
// (../generated/operations.ts, written by `pnpm generate`), over openapi-fetch and the hand-written
// transport (./transport.ts: token, request id, idempotency key, If-Match, retries, timeouts, the 401
// refresh, the optional check of answers, result shape). `createContractClient` does the same for any
// contract's generated functions and operation table (the tests' fixture spec of shapes).
import createClient, { type Client } from 'openapi-fetch';
import { operationTable, type DeprecationFacts, type OperationId, type paths, type ResponseValidatorTable } from '@invoice-api/contract';
import { operationFunctions } from '../generated/operations.js';
import type { ApiResult } from './result.js';
import { productValidators, responseCheck, type ResponseValidationError } from './response-validation.js';
import { retryPolicy, type RetryOptions } from './retry.js';
import { networkErrors } from './network.js';
import { defaultTimeoutMs } from './timeout.js';
import { authMiddleware, createInvoke, type CallFacts, type Invoke, type TokenSource } from './transport.js';
import { deprecationNotifier, type OnDeprecation } from './deprecation.js';
import { TokenRefresher, type OnUnauthorized } from './unauthorized.js';
import type { TraceContextSource } from './trace-context.js';

export type { AcceptOption, CallOptions, ContentTypeOption, IdempotencyKeyOption, IfMatchOption, StreamOption } from './transport.js';

export type ApiClientOptions = TokenSource & {
  /** The API's base URL, e.g. `http://127.0.0.1:4010` for the mock. */
  baseUrl: string;
  /** Injectable fetch (tests, instrumentation). Default: the global fetch, as it is at each call. */
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
  /**
   * Milliseconds each attempt of a call may take (request sent, answer and body received) before it
   * is abandoned as a network failure; `false` or 0: no limit. Default 30000. Per call: `{ timeout }`.
   */
  timeout?: number | false;
  /**
   * Asked for a fresh token when an answer is 401; the call is then replayed once with it (safe
   * operations and keyed writes only). Calls refused together share one refresh.
   */
  onUnauthorized?: OnUnauthorized;
  /**
   * Check every answer against the spec with the validators `pnpm generate` compiled. `true`: a call
   * whose answer does not match throws `ResponseValidationError`; a function: it receives that error
   * and the call returns as usual. Default false (nothing is loaded).
   */
  validateResponses?: boolean | ((error: ResponseValidationError) => void);
  /**
   * Headers that make each call part of the caller's trace (W3C `traceparent`), asked for once per
   * call; `openTelemetryTraceContext(api)` reads them from `@opentelemetry/api`'s active span. Default:
   * none sent.
   */
  traceContext?: TraceContextSource;
};

/** What a client reads of each entry of a contract's operation table at run time. */
export type ContractTable = { readonly [operationId: string]: CallFacts & { readonly deprecation: DeprecationFacts | null } };

/** The run-time half of a contract: what `createContractClient` makes a client of. */
export interface ContractRuntime<Paths extends object, Functions> {
  /** The contract's operation table (each operation's method, path, scopes and deprecation). */
  table: ContractTable;
  /** The `operationFunctions` of the contract's generated client module. */
  operationFunctions: (raw: Client<Paths>, call: Invoke) => Functions;
  /** Loads the contract's generated response validators; needed for `validateResponses`. */
  validators?: () => Promise<ResponseValidatorTable>;
}

/**
 * A client of any contract's generated functions: the same transport, options and result shape as
 * `createApiClient`, which is this over the product's contract.
 */
export function createContractClient<Paths extends object, Functions>(
  contract: ContractRuntime<Paths, Functions>,
  options: ApiClientOptions,
): { raw: Client<Paths> } & Functions {
  if (options.token !== undefined && options.getToken !== undefined) throw new TypeError('createApiClient: give token or getToken, not both');
  const validate = options.validateResponses;
  if (validate && contract.validators === undefined) throw new TypeError("createApiClient: validateResponses needs the contract's response validators");
  // The global fetch is looked up on every call, not once here: a test's MSW server (or any other
  // interceptor) installed after the client was made, as a module-level client of an app is, still
  // sees its requests.
  const raw = createClient<Paths>({ baseUrl: options.baseUrl, fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)) });
  const refresher = options.onUnauthorized ? new TokenRefresher(options.onUnauthorized) : undefined;
  raw.use(authMiddleware(options, () => refresher?.latestToken));
  raw.use(networkErrors);
  const uuid = () => globalThis.crypto.randomUUID();
  const { table } = contract;
  const call = createInvoke(
    retryPolicy(options.retry),
    { requestId: options.requestId ?? uuid, idempotencyKey: options.idempotencyKey ?? uuid, traceContext: options.traceContext },
    {
      timeoutMs: options.timeout === undefined ? defaultTimeoutMs : options.timeout || undefined,
      refresher,
      deprecation: deprecationNotifier(options.onDeprecation, (operationId) => table[operationId]?.deprecation ?? null),
      validation: validate ? { check: responseCheck(contract.validators), report: typeof validate === 'function' ? validate : undefined } : undefined,
    },
    table,
  );
  return {
    /** The underlying openapi-fetch client (same auth middleware), for anything the operation functions do not cover. */
    raw,
    ...contract.operationFunctions(raw, call),
  };
}

export function createApiClient(options: ApiClientOptions) {
  return createContractClient<paths, ReturnType<typeof operationFunctions>>(
    { table: operationTable, operationFunctions, validators: productValidators },
    options,
  ) satisfies { raw: Client<paths> } & { [K in OperationId]: (...args: never[]) => Promise<ApiResult<K>> };
}

export type ApiClient = ReturnType<typeof createApiClient>;
