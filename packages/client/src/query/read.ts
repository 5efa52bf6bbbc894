// A read's query options: the key, and a queryFn that passes TanStack's signal to the call (an
// unmounted component or a cancelled query aborts the request) and turns an error answer into a throw.
import type { QueryFunctionContext, QueryKey, QueryObserverOptions } from '@tanstack/query-core';
import type { OperationId } from '@invoice-api/contract';
import { expectOk, type ApiResult } from '../result.js';
import type { SuccessData } from '../types.js';
import type { OperationError } from './errors.js';

/** `{ queryKey, queryFn }`, typed so that `useQuery`, `fetchQuery` and `QueryObserver` infer data and error. */
export type ReadOptions<K extends OperationId, Key extends QueryKey> = QueryObserverOptions<
  SuccessData<K>,
  OperationError<K>,
  SuccessData<K>,
  SuccessData<K>,
  Key
> & {
  queryKey: Key;
  queryFn: (context: QueryFunctionContext<Key>) => Promise<SuccessData<K>>;
};

export function readOptions<K extends OperationId, Key extends QueryKey>(
  queryKey: Key,
  call: (signal: AbortSignal) => Promise<ApiResult<K>>,
): ReadOptions<K, Key> {
  return { queryKey, queryFn: ({ signal }) => expectOk(call(signal)) };
}
