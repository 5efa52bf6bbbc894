// Query keys, hierarchical: `[resource, operationId, args]` for a read, the same with `'infinite'` at
// the end for its infinite list. The resource is the operation's tag in the spec (`invoices`,
// `deliveries`, ...) and `args` the request's parts under the spec's names. TanStack matches a filter
// by prefix, and an object in it by the properties it gives, so `['invoices']` matches every invoice
// read, `['invoices', 'searchInvoices']` every search (plain and infinite), and
// `['invoices', 'getInvoice', { path: { invoice_id: 7 } }]` the reads of invoice 7.
// A read's key is tagged with its data and error types (TanStack's DataTag), so `getQueryData(key)`
// and `setQueryData(key, ...)` are typed without naming the type.
import type { DataTag } from '@tanstack/query-core';
import type { OperationError } from './errors.js';
import type { ClientContract, ContractOperationId, ContractSuccessData, ProductContract } from '../types.js';

/** The key of one read with its arguments. */
export type OperationQueryKey<R extends string, K extends string, A> = readonly [resource: R, operationId: K, args: A];

/** Every call of one operation (a filter for `invalidateQueries`, and the mutation key of a write). */
export type OperationKey<R extends string, K extends string> = readonly [resource: R, operationId: K];

/** A read's key, typed (TanStack's DataTag) with the data and error of its query (of contract `C`, the product's by default). */
export type ReadQueryKey<R extends string, K extends ContractOperationId<C>, A, C extends ClientContract = ProductContract> = DataTag<
  OperationQueryKey<R, K, A>,
  ContractSuccessData<C, K>,
  OperationError<K, C>
>;

/** A read's key, typed with what its query holds. */
export function queryKey<R extends string, K extends ContractOperationId<C>, A, C extends ClientContract = ProductContract>(
  resource: R,
  operationId: K,
  args: A,
): ReadQueryKey<R, K, A, C> {
  // The tag exists only in the type: the key itself is the plain array.
  return [resource, operationId, args] as const as ReadQueryKey<R, K, A, C>;
}

/** A read's key as a plain array, untagged: what an invalidation filters by (it reads no data back). */
export function readKey<R extends string, K extends string, A>(resource: R, operationId: K, args: A): OperationQueryKey<R, K, A> {
  return [resource, operationId, args] as const;
}

/** The prefix of every key of one operation. */
export function operationKey<R extends string, K extends string>(resource: R, operationId: K): OperationKey<R, K> {
  return [resource, operationId] as const;
}
