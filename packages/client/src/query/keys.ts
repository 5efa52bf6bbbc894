// Query keys, hierarchical: `[resource, operationId, args]` for a read, the same with `'infinite'` at
// the end for its infinite list. The resource is the operation's tag in the spec (`invoices`,
// `deliveries`, ...) and `args` the request's parts under the spec's names. TanStack matches a filter
// by prefix, and an object in it by the properties it gives, so `['invoices']` matches every invoice
// read, `['invoices', 'searchInvoices']` every search (plain and infinite), and
// `['invoices', 'getInvoice', { path: { invoice_id: 7 } }]` the reads of invoice 7.
// A read's key is tagged with its data and error types (TanStack's DataTag), so `getQueryData(key)`
// and `setQueryData(key, ...)` are typed without naming the type.
import type { DataTag } from '@tanstack/query-core';
import type { OperationId } from '@invoice-api/contract';
import type { OperationError } from './errors.js';
import type { SuccessData } from '../types.js';

/** The key of one read with its arguments. */
export type OperationQueryKey<R extends string, K extends OperationId, A> = readonly [resource: R, operationId: K, args: A];

/** Every call of one operation (a filter for `invalidateQueries`, and the mutation key of a write). */
export type OperationKey<R extends string, K extends OperationId> = readonly [resource: R, operationId: K];

/** A read's key, typed (TanStack's DataTag) with the data and error of its query. */
export type ReadQueryKey<R extends string, K extends OperationId, A> = DataTag<OperationQueryKey<R, K, A>, SuccessData<K>, OperationError<K>>;

/** A read's key, typed with what its query holds. */
export function queryKey<R extends string, K extends OperationId, A>(resource: R, operationId: K, args: A): ReadQueryKey<R, K, A> {
  // The tag exists only in the type: the key itself is the plain array.
  return [resource, operationId, args] as const as ReadQueryKey<R, K, A>;
}

/** The prefix of every key of one operation. */
export function operationKey<R extends string, K extends OperationId>(resource: R, operationId: K): OperationKey<R, K> {
  return [resource, operationId] as const;
}
