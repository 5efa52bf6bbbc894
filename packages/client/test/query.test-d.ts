// Type-level tests of @invoice-api/client/query: `pnpm typecheck` compiles this file, so each
// `@ts-expect-error` must meet a real error. Data, error and variables are typed per operation through
// TanStack's own entry points (fetchQuery, QueryObserver, fetchInfiniteQuery, MutationObserver,
// getQueryData), so options that decayed to `unknown` or `any` fail here.
import { type InfiniteData, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { expectTypeOf } from 'vitest';
import type { ApiError, components, Delivery, InvoiceSearchResult, OperationId, operationTable } from '@invoice-api/contract';
import { createApiClient } from '../src/index.js';
import { ApiCallError, createQueryOptions, type MutationVariables, type OperationError, type QueryOptions } from '../src/query/index.js';

type InvoiceEnvelope = components['schemas']['InvoiceEnvelope'];
type DeliveryEnvelope = components['schemas']['DeliveryEnvelope'];

const api = createApiClient({ baseUrl: 'http://127.0.0.1:4010', token: 't' });
const q = createQueryOptions(api);
const queryClient = new QueryClient();

// Every read has options and a key, every paged read an infinite list, every write a mutation. What a
// read is comes from the operation table, as the generator decides it (a GET, or only :read scopes),
// so an operation the spec adds is held to the same rule.
type Table = typeof operationTable;
type ReadOnlyScopes<K extends OperationId> = Table[K]['scopes'][number] extends `${string}:read` ? true : false;
type Read = {
  [K in OperationId]: Table[K]['method'] extends 'GET' | 'HEAD'
    ? K
    : Table[K]['scopes'] extends readonly []
      ? never
      : ReadOnlyScopes<K> extends true
        ? K
        : never;
}[OperationId];
expectTypeOf<'searchInvoices' | 'getInvoice' | 'listDeliveries'>().toExtend<Read>();
type Write = Exclude<OperationId, Read>;
expectTypeOf<Exclude<`${Read}Options` | `${Read}QueryKey`, keyof QueryOptions>>().toEqualTypeOf<never>();
expectTypeOf<Exclude<`${Write}Mutation`, keyof QueryOptions>>().toEqualTypeOf<never>();
expectTypeOf<Extract<keyof QueryOptions, `${string}InfiniteOptions`>>().toEqualTypeOf<'searchInvoicesInfiniteOptions' | 'listDeliveriesInfiniteOptions'>();
// A write has no query options, a read no mutation.
expectTypeOf<Extract<keyof QueryOptions, `${Write}Options` | `${Read}Mutation`>>().toEqualTypeOf<never>();

export async function reads() {
  const found = await queryClient.fetchQuery(q.searchInvoicesOptions({ body: { criteria: [{ field: 'status', operator: '=', value: 'paid' }] } }));
  expectTypeOf(found).toEqualTypeOf<InvoiceSearchResult>();
  const invoice = await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: 7 } }));
  expectTypeOf(invoice).toEqualTypeOf<InvoiceEnvelope>();
  expectTypeOf(await queryClient.fetchQuery(q.listUsersOptions())).toHaveProperty('users');

  // The observer (what every adapter's useQuery wraps) infers the data and the operation's error.
  const observer = new QueryObserver(queryClient, q.getDeliveryOptions({ path: { delivery_id: 3 } }));
  const result = observer.getCurrentResult();
  expectTypeOf(result.data).toEqualTypeOf<DeliveryEnvelope | undefined>();
  expectTypeOf(result.error).toEqualTypeOf<OperationError<'getDelivery'> | null>();
  if (result.error instanceof ApiCallError) {
    expectTypeOf(result.error.operationId).toEqualTypeOf<'getDelivery'>();
    expectTypeOf(result.error.result.status).toEqualTypeOf<number>();
    expectTypeOf(result.error.result.error).toEqualTypeOf<ApiError>();
  }

  // Keys are typed with their data: the cache is read back without naming the type.
  expectTypeOf(queryClient.getQueryData(q.getInvoiceQueryKey({ path: { invoice_id: 7 } }))).toEqualTypeOf<InvoiceEnvelope | undefined>();
  expectTypeOf(q.getInvoiceQueryKey({ path: { invoice_id: 7 } })[0]).toEqualTypeOf<'invoices'>();
  expectTypeOf(q.getInvoiceQueryKey({ path: { invoice_id: 7 } })[1]).toEqualTypeOf<'getInvoice'>();

  // @ts-expect-error a path id is a number
  q.getInvoiceOptions({ path: { invoice_id: '7' } });
  // @ts-expect-error getInvoice needs its path
  q.getInvoiceOptions();
  // @ts-expect-error the parameter is invoice_id, as the spec names it
  q.getInvoiceOptions({ path: { id: 7 } });
  // @ts-expect-error limit is an integer
  q.searchInvoicesOptions({ body: { limit: '10' } });
  // @ts-expect-error unknown property in a closed request body
  q.searchInvoicesOptions({ body: { page: 2 } });
  // @ts-expect-error listDeliveries takes limit/offset in its query
  q.listDeliveriesOptions({ query: { page: 1 } });
}

export async function infiniteLists() {
  const searched = await queryClient.fetchInfiniteQuery(q.searchInvoicesInfiniteOptions({ body: { limit: 20, order_by: 'amount' } }));
  expectTypeOf(searched).toEqualTypeOf<InfiniteData<InvoiceSearchResult, string | null>>();
  const delivered = await queryClient.fetchInfiniteQuery(q.listDeliveriesInfiniteOptions({ query: { limit: 100 } }));
  // By offset: the page param is the offset.
  expectTypeOf(delivered.pageParams).toEqualTypeOf<number[]>();
  expectTypeOf(delivered.pages[0]?.deliveries).toEqualTypeOf<Delivery[] | undefined>();
  expectTypeOf(queryClient.getQueryData(q.searchInvoicesInfiniteQueryKey())).toEqualTypeOf<InfiniteData<InvoiceSearchResult, string | null> | undefined>();
  // @ts-expect-error the cursor is the infinite list's own business
  q.searchInvoicesInfiniteOptions({ body: { cursor: 'abc' } });
}

export async function mutations() {
  const create = new MutationObserver(queryClient, q.createInvoiceMutation());
  const created = await create.mutate({ body: { client_id: 1, amount: 10, currency: 'CHF', due_date: '2027-01-31' }, options: { idempotencyKey: 'k' } });
  expectTypeOf(created).toEqualTypeOf<InvoiceEnvelope>();
  expectTypeOf(create.getCurrentResult().error).toEqualTypeOf<OperationError<'createInvoice'> | null>();

  const issue = new MutationObserver(queryClient, q.issueDeliveryMutation());
  expectTypeOf(await issue.mutate({ body: { delivery_id: 1, contact_id: 2, items: [{ item_id: 3, quantity: 1, unit_price: 1 }] } })).toEqualTypeOf<Delivery>();
  expectTypeOf<Parameters<typeof issue.mutate>[0]>().toEqualTypeOf<MutationVariables['issueDelivery']>();

  const update = new MutationObserver(queryClient, q.updateInvoiceMutation());
  await update.mutate({ path: { invoice_id: 7 }, body: { status: 'paid' }, options: { ifMatch: '"v1"' } });
  // @ts-expect-error status must be one of the five
  await update.mutate({ path: { invoice_id: 7 }, body: { status: 'archived' } });
  // @ts-expect-error an update needs the invoice's path
  await update.mutate({ body: { status: 'paid' } });
  // @ts-expect-error updates take If-Match, not an Idempotency-Key
  await update.mutate({ path: { invoice_id: 7 }, body: { status: 'paid' }, options: { idempotencyKey: 'k' } });
  // @ts-expect-error items is required
  await issue.mutate({ body: { delivery_id: 1, contact_id: 2 } });
}
