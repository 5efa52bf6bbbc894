// @invoice-api/client/query: TanStack Query options for every operation of the API, generated from
// the spec (../../generated/query.ts, written by `pnpm generate`), on @tanstack/query-core alone, so
// the same objects go to the React, Vue, Svelte, Solid and Angular adapters.
//
//   const q = createQueryOptions(createApiClient({ baseUrl, token }));
//   useQuery(q.getInvoiceOptions({ path: { invoice_id: 7 } }));
//   useInfiniteQuery(q.searchInvoicesInfiniteOptions({ body: { criteria } }));
//   useMutation(q.updateInvoiceMutation());   // onSuccess invalidates what the spec's x-invalidates names
import type { ApiClient } from '../client.js';
import { generatedQueryOptions } from '../../generated/query.js';

/** Query options, query keys and mutation options for every operation, calling through `api`. */
export function createQueryOptions(api: ApiClient) {
  return generatedQueryOptions(api);
}

export type QueryOptions = ReturnType<typeof createQueryOptions>;

export { queryResources } from '../../generated/query.js';
export type { InfiniteQueryArgs, MutationVariables, QueryApi, QueryArgs } from '../../generated/query.js';
export { ApiCallError } from '../result.js';
export type { OperationError } from './errors.js';
export { infiniteQueryKey } from './infinite.js';
export type { InfiniteOptions, InfiniteQueryKey, OperationInfiniteQueryKey, PageParam } from './infinite.js';
export { operationKey, queryKey, readKey } from './keys.js';
export type { OperationKey, OperationQueryKey, ReadQueryKey } from './keys.js';
export type { MutationCallOptions, OperationMutationOptions } from './mutation.js';
export type { ReadOptions } from './read.js';
