// Every page, or every item, of an operation that pages, with `for await`. Which operations page and
// how (cursor or offset, where the items are, what says that more follows) is the generated
// `pagingTable` (scripts/lib/generate-paging.mjs, from the spec); this is the loop around it:
// - by cursor where the operation has one: the next request is the first one with `cursor` set to
//   the answer's `next_cursor` (and no offset); it stops when an answer carries no cursor;
// - by offset otherwise: it stops when the answer says nothing follows (`has_more`, else `total`),
//   and, where the answer says neither, at the first page shorter than the limit.
// No request is sent after the last page where the answer says which page is last. Each page is one
// call of the operation's function, so the client's retries (429 and 503 with Retry-After) apply, and
// the signal aborts the walk between pages and the request in flight. A next_cursor equal to the
// cursor just sent (a static mock's answer) throws instead of looping.
import { pagingTable } from '../generated/paging.js';
import { ApiCallError, type ApiResult } from './result.js';
import type { CallOptions } from './transport.js';
import type { QueryParams, RequestBody, SuccessData } from './types.js';

/** The operations that page (from the spec). */
export type PagedOperationId = keyof typeof pagingTable;
type Entry<K extends PagedOperationId> = (typeof pagingTable)[K];

/** The request of the first page: the operation's body or query, without `cursor` (the helper sends it). */
export type PageRequest<K extends PagedOperationId> = Omit<
  Entry<K>['request'] extends 'body' ? NonNullable<RequestBody<K>> : QueryParams<K>,
  Entry<K>['cursor'] extends { request: infer Name extends string } ? Name : never
>;

/** One page: the operation's success body. */
export type Page<K extends PagedOperationId> = SuccessData<K>;

/** One item of a page (an `Invoice` of searchInvoices, a `Delivery` of listDeliveries). */
export type PageItem<K extends PagedOperationId> = Page<K> extends { [P in Entry<K>['items']]: ReadonlyArray<infer Item> } ? Item : never;

/** The operation functions the helper calls: an `ApiClient` (createApiClient) has them all. */
export type PagingClient = { [K in PagedOperationId]: (request: never, options?: CallOptions) => Promise<ApiResult<K>> };

export interface PagingOptions {
  /** Stops the walk: the request in flight is aborted, and no further page is asked for. */
  signal?: AbortSignal;
  /** Options for every page's call (headers, e.g. `Prefer` against the Prism mock); not its signal. */
  call?: Omit<CallOptions, 'signal'>;
}

/** One row of the generated paging table. */
export interface PagingEntry {
  request: 'body' | 'query';
  items: string;
  limit: { name: string; default: number };
  offset: string | null;
  cursor: { request: string; response: readonly string[] } | null;
  hasMore: readonly string[] | null;
  total: readonly string[] | null;
}

/** The value at a path of property names, or undefined. */
export function at(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** The request after a page, or undefined when that page was the last (also the infinite queries' next page). */
export function nextRequest(
  entry: PagingEntry,
  first: Record<string, unknown>,
  page: unknown,
  position: number,
  returned: number,
): Record<string, unknown> | undefined {
  // An empty page ends every walk, whatever the answer says: nothing else can make progress.
  if (returned === 0) return undefined;
  const cursor = entry.cursor === null ? undefined : at(page, entry.cursor.response);
  const hasMore = entry.hasMore === null ? undefined : at(page, entry.hasMore);
  if (entry.cursor !== null && typeof cursor === 'string') {
    const next = { ...first, [entry.cursor.request]: cursor };
    // A cursor already says where the page starts: an offset beside it would skip again.
    if (entry.offset !== null) delete next[entry.offset];
    return next;
  }
  let more: boolean;
  if (typeof hasMore === 'boolean') more = hasMore;
  else if (entry.total !== null && typeof at(page, entry.total) === 'number') more = position + returned < (at(page, entry.total) as number);
  else {
    const limit = first[entry.limit.name];
    more = returned >= (typeof limit === 'number' ? limit : entry.limit.default);
  }
  if (!more || entry.offset === null) return undefined;
  return { ...first, [entry.offset]: position + returned };
}

/**
 * Every page of `operationId`, starting with `request`, in order. Throws `ApiCallError` for a page
 * answered with an error (after the client's retries), and the signal's reason when aborted.
 */
export async function* pages<K extends PagedOperationId>(
  api: PagingClient,
  operationId: K,
  request?: PageRequest<K>,
  options: PagingOptions = {},
): AsyncGenerator<Page<K>, void, undefined> {
  const entry: PagingEntry = pagingTable[operationId];
  const call = api[operationId] as unknown as (request: Record<string, unknown>, options: CallOptions) => Promise<ApiResult<K>>;
  const first: Record<string, unknown> = { ...request };
  const startOffset = entry.offset === null ? undefined : first[entry.offset];
  let position = typeof startOffset === 'number' ? startOffset : 0;
  let next: Record<string, unknown> | undefined = first;
  while (next !== undefined) {
    options.signal?.throwIfAborted();
    const result = await call(next, { ...options.call, ...(options.signal === undefined ? {} : { signal: options.signal }) });
    if (!result.ok) throw new ApiCallError(result);
    const items = at(result.data, [entry.items]);
    const returned = Array.isArray(items) ? items.length : 0;
    yield result.data;
    const sent = next;
    next = nextRequest(entry, first, result.data, position, returned);
    position += returned;
    // A static mock answers the same page, and the same next_cursor, for every cursor: stop rather than loop.
    if (entry.cursor !== null && next !== undefined && next[entry.cursor.request] !== undefined && next[entry.cursor.request] === sent[entry.cursor.request]) {
      throw new Error(
        `${operationId}: the page asked for with a cursor answered that same cursor as its next_cursor, so paging cannot advance (a static mock such as Prism answers every page alike)`,
      );
    }
  }
}

/** Every item of every page of `operationId`, in order: `for await (const invoice of items(api, 'searchInvoices', { criteria }))`. */
export async function* items<K extends PagedOperationId>(
  api: PagingClient,
  operationId: K,
  request?: PageRequest<K>,
  options: PagingOptions = {},
): AsyncGenerator<PageItem<K>, void, undefined> {
  const key = pagingTable[operationId].items;
  for await (const page of pages(api, operationId, request, options)) {
    yield* (page as Record<string, unknown>)[key] as Array<PageItem<K>>;
  }
}
