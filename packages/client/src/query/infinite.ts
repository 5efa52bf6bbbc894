// A paged read's infinite query options. Which operations page, and how, is the generated paging
// table (from the spec), as for the client's `pages()`; the page param is what differs between pages:
// - by cursor (searchInvoices): `null` for the first page, which is sent without any cursor property
//   (not `cursor: null`, not 0), then the previous page's `next_cursor`; the list ends when the answer
//   carries no cursor (`has_more: false`). Pages after the first drop the offset: the cursor says
//   where they start.
// - by offset (listDeliveries): the first request's offset (default 0), then the offset after the
//   last page, while the answer says more follows (`has_more`, else `total`, else a full page).
import type { DataTag, GetNextPageParamFunction, InfiniteData, InfiniteQueryObserverOptions, QueryFunctionContext, QueryKey } from '@tanstack/query-core';
import { pagingTable } from '../../generated/paging.js';
import { at, nextRequest, type PageRequest, type PagedOperationId, type PagingEntry } from '../paging.js';
import { expectOk, type ApiResult } from '../result.js';
import type { QueryParams, RequestBody, SuccessData } from '../types.js';
import type { OperationError } from './errors.js';
import { queryKey, type OperationQueryKey } from './keys.js';

type Entry<K extends PagedOperationId> = (typeof pagingTable)[K];

/** The page param: a cursor (`null` for the first page) or an offset. */
export type PageParam<K extends PagedOperationId> = Entry<K>['cursor'] extends null ? number : string | null;

/** The whole request of one page, as the operation's function takes it. */
export type PageCallRequest<K extends PagedOperationId> = Entry<K>['request'] extends 'body' ? NonNullable<RequestBody<K>> : QueryParams<K>;

/** An infinite list's key: the read's key with `'infinite'` after the arguments. */
export type OperationInfiniteQueryKey<R extends string, K extends PagedOperationId, A> = readonly [...OperationQueryKey<R, K, A>, kind: 'infinite'];

export type InfiniteOptions<K extends PagedOperationId, Key extends QueryKey> = InfiniteQueryObserverOptions<
  SuccessData<K>,
  OperationError<K>,
  InfiniteData<SuccessData<K>, PageParam<K>>,
  Key,
  PageParam<K>
> & {
  queryKey: Key;
  queryFn: (context: QueryFunctionContext<Key, PageParam<K>>) => Promise<SuccessData<K>>;
  initialPageParam: PageParam<K>;
  getNextPageParam: GetNextPageParamFunction<PageParam<K>, SuccessData<K>>;
};

/** An infinite list's key, typed (TanStack's DataTag) with the pages and error of its query. */
export type InfiniteQueryKey<R extends string, K extends PagedOperationId, A> = DataTag<
  OperationInfiniteQueryKey<R, K, A>,
  InfiniteData<SuccessData<K>, PageParam<K>>,
  OperationError<K>
>;

export function infiniteQueryKey<R extends string, K extends PagedOperationId, A>(resource: R, operationId: K, args: A): InfiniteQueryKey<R, K, A> {
  return [...queryKey(resource, operationId, args), 'infinite'] as const as InfiniteQueryKey<R, K, A>;
}

/** The request of the page with this param. */
function pageRequest(entry: PagingEntry, first: Record<string, unknown>, pageParam: unknown): Record<string, unknown> {
  if (pageParam === null || pageParam === undefined) return first;
  if (typeof pageParam === 'string' && entry.cursor !== null) {
    const next: Record<string, unknown> = { ...first, [entry.cursor.request]: pageParam };
    if (entry.offset !== null) delete next[entry.offset];
    return next;
  }
  return entry.offset === null || typeof pageParam !== 'number' ? first : { ...first, [entry.offset]: pageParam };
}

/** The param of the page after `page`, or undefined when it was the last. */
function nextPageParam(entry: PagingEntry, first: Record<string, unknown>, page: unknown, pageParam: unknown): string | number | undefined {
  const items = at(page, [entry.items]);
  const position = typeof pageParam === 'number' ? pageParam : 0;
  const next = nextRequest(entry, first, page, position, Array.isArray(items) ? items.length : 0);
  if (next === undefined) return undefined;
  // A cursor operation goes on by cursor only: an answer with more to come but no cursor is the end.
  const value = entry.cursor !== null ? next[entry.cursor.request] : entry.offset === null ? undefined : next[entry.offset];
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

export function infiniteOptions<K extends PagedOperationId, Key extends QueryKey>(
  queryKey: Key,
  operationId: K,
  first: PageRequest<K> | undefined,
  call: (request: PageCallRequest<K>, signal: AbortSignal) => Promise<ApiResult<K>>,
): InfiniteOptions<K, Key> {
  const entry: PagingEntry = pagingTable[operationId];
  const firstRequest: Record<string, unknown> = { ...first };
  const startOffset = entry.offset === null ? undefined : firstRequest[entry.offset];
  // The casts below only restate, for the compiler, what the paging table decides at run time.
  const initialPageParam = (entry.cursor !== null ? null : typeof startOffset === 'number' ? startOffset : 0) as PageParam<K>;
  return {
    queryKey,
    initialPageParam,
    queryFn: ({ pageParam, signal }) => expectOk(call(pageRequest(entry, firstRequest, pageParam) as PageCallRequest<K>, signal)),
    getNextPageParam: (lastPage, _allPages, lastPageParam) => nextPageParam(entry, firstRequest, lastPage, lastPageParam) as PageParam<K> | undefined,
  };
}
