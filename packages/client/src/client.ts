// createApiClient: one typed function per operationId over openapi-fetch and the generated `paths`.
// Every function returns an ApiResult (the spec's success body or its Error body); auth, the request
// id and retries for safe operations are handled here once, so call sites stay one line.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { OperationId, paths } from '@invoice-api/contract';
import { UnexpectedResponseError, type ApiResult } from './result.js';
import { isSafeOperation, retryableStatuses, retryDelay, retryPolicy, type RetryOptions, type RetryPolicy } from './retry.js';
import type { ErrorData, QueryParams, RequestBody, SuccessData } from './types.js';

interface TokenSource {
  /** A fixed access token, sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Asked for the token before every request (a refreshing token source); not with `token`. */
  getToken?: (() => string | Promise<string>) | undefined;
}

export type ApiClientOptions = TokenSource & {
  /** The API's base URL, e.g. `http://127.0.0.1:4010` for the mock. */
  baseUrl: string;
  /** Injectable fetch (tests, instrumentation). Default: globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retry policy for safe operations; `false` turns retries off. */
  retry?: RetryOptions | false;
  /** Makes the `X-Request-Id` of each call. Default: crypto.randomUUID. */
  requestId?: () => string;
};

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

type Send<K extends OperationId> = (init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<RawResult<K>>;

function authMiddleware(options: TokenSource): Middleware | undefined {
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

export function createApiClient(options: ApiClientOptions) {
  if (options.token !== undefined && options.getToken !== undefined) throw new TypeError('createApiClient: give token or getToken, not both');
  const raw: Client<paths> = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const auth = authMiddleware(options);
  if (auth) raw.use(auth);
  const policy: RetryPolicy = retryPolicy(options.retry);
  const makeRequestId = options.requestId ?? (() => globalThis.crypto.randomUUID());

  async function call<K extends OperationId>(operationId: K, callOptions: CallOptions | undefined, send: Send<K>): Promise<ApiResult<K>> {
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
  }

  return {
    /** The underlying openapi-fetch client (same auth middleware), for anything the functions below do not cover. */
    raw,

    searchInvoices: (body?: RequestBody<'searchInvoices'>, opts?: CallOptions) =>
      call('searchInvoices', opts, (init) => raw.POST('/api/v1/invoices/search', { ...init, ...(body === undefined ? {} : { body }) })),
    getInvoice: (invoiceId: number, opts?: CallOptions) =>
      call('getInvoice', opts, (init) => raw.GET('/api/v1/invoices/{invoice_id}', { ...init, params: { path: { invoice_id: invoiceId } } })),
    createInvoice: (body: RequestBody<'createInvoice'>, opts?: CallOptions) =>
      call('createInvoice', opts, (init) => raw.POST('/api/v1/invoices', { ...init, body })),
    updateInvoice: (invoiceId: number, body: RequestBody<'updateInvoice'>, opts?: CallOptions) =>
      call('updateInvoice', opts, (init) => raw.PATCH('/api/v1/invoices/{invoice_id}', { ...init, params: { path: { invoice_id: invoiceId } }, body })),

    listUsers: (opts?: CallOptions) => call('listUsers', opts, (init) => raw.GET('/api/v1/users', init)),
    getUser: (userId: number, opts?: CallOptions) =>
      call('getUser', opts, (init) => raw.GET('/api/v1/users/{user_id}', { ...init, params: { path: { user_id: userId } } })),

    listCompanyClients: (opts?: CallOptions) => call('listCompanyClients', opts, (init) => raw.GET('/api/v1/company_clients', init)),
    getCompanyClient: (clientId: number, opts?: CallOptions) =>
      call('getCompanyClient', opts, (init) => raw.GET('/api/v1/company_clients/{client_id}', { ...init, params: { path: { client_id: clientId } } })),

    listDeliveries: (query?: QueryParams<'listDeliveries'>, opts?: CallOptions) =>
      call('listDeliveries', opts, (init) => raw.GET('/2.0/delivery', { ...init, params: { query: query ?? {} } })),
    getDelivery: (deliveryId: number, opts?: CallOptions) =>
      call('getDelivery', opts, (init) => raw.GET('/2.0/delivery/{delivery_id}', { ...init, params: { path: { delivery_id: deliveryId } } })),
    createDelivery: (body: RequestBody<'createDelivery'>, opts?: CallOptions) =>
      call('createDelivery', opts, (init) => raw.POST('/2.0/delivery', { ...init, body })),
    updateDelivery: (deliveryId: number, body: RequestBody<'updateDelivery'>, opts?: CallOptions) =>
      call('updateDelivery', opts, (init) => raw.PATCH('/2.0/delivery/{delivery_id}', { ...init, params: { path: { delivery_id: deliveryId } }, body })),
    issueDelivery: (body: RequestBody<'issueDelivery'>, opts?: CallOptions) =>
      call('issueDelivery', opts, (init) => raw.POST('/2.0/delivery/issue', { ...init, body })),

    getHealth: (opts?: CallOptions) => call('getHealth', opts, (init) => raw.GET('/healthz', init)),
  } satisfies { raw: Client<paths> } & { [K in OperationId]: (...args: never[]) => Promise<ApiResult<K>> };
}

export type ApiClient = ReturnType<typeof createApiClient>;
