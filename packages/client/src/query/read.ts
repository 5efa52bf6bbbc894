// A read's query options: the key, and a queryFn that passes TanStack's signal to the call (an
// unmounted component or a cancelled query aborts the request) and turns an error answer into a throw.
// The data is the success body as the client reads it (../types.ts): a Blob for a file, a string for a
// text, JSON otherwise.
import type { QueryFunctionContext, QueryKey, QueryObserverOptions } from '@tanstack/query-core';
import { expectOk, type ContractResult } from '../result.js';
import type { ClientContract, ContractOperationId, ContractSuccessData, ProductContract } from '../types.js';
import type { OperationError } from './errors.js';

/** `{ queryKey, queryFn }`, typed so that `useQuery`, `fetchQuery` and `QueryObserver` infer data and error. */
export type ReadOptions<K extends ContractOperationId<C>, Key extends QueryKey, C extends ClientContract = ProductContract> = QueryObserverOptions<
  ContractSuccessData<C, K>,
  OperationError<K, C>,
  ContractSuccessData<C, K>,
  ContractSuccessData<C, K>,
  Key
> & {
  queryKey: Key;
  queryFn: (context: QueryFunctionContext<Key>) => Promise<ContractSuccessData<C, K>>;
};

export function readOptions<K extends ContractOperationId<C>, Key extends QueryKey, C extends ClientContract = ProductContract>(
  queryKey: Key,
  call: (signal: AbortSignal) => Promise<ContractResult<C, K>>,
): ReadOptions<K, Key, C> {
  return { queryKey, queryFn: ({ signal }) => expectOk(call(signal)) };
}
