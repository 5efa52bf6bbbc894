// The app's data layer, DOM-free: one TanStack QueryClient and the client's generated query options
// (`@invoice-api/client/query`). The views observe these queries; a write goes through its generated
// mutation, whose onSuccess invalidates the reads the spec says it makes stale, so an open list
// refetches and redraws without a page reload. Runs the same in the page and in Node (unit tests).
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import type { ApiClient } from '@invoice-api/client';
import { createQueryOptions, type MutationVariables } from '@invoice-api/client/query';
import type { Delivery, InvoiceSearchRequest } from '@invoice-api/contract';

/** What the invoice list asks for: the first page's request (the pages after it go on by cursor). */
export type InvoiceQuery = Omit<InvoiceSearchRequest, 'cursor' | 'offset'>;

/** The deliveries the page keeps in view: one request, the API's largest page. */
export const deliveryListQuery = { query: { limit: 1000 } } as const;

export function createAppData(api: ApiClient) {
  const queryClient = new QueryClient({
    defaultOptions: {
      // The page shows every failure at once, in the API's words: retrying would only delay it.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  const queries = createQueryOptions(api);

  return {
    queryClient,
    queries,
    /** The invoice search as an infinite list by cursor: `fetchNextPage()` loads the page after the last. */
    invoiceList(query: InvoiceQuery) {
      return new InfiniteQueryObserver(queryClient, queries.searchInvoicesInfiniteOptions({ body: query }));
    },
    /** Points an open invoice list at another search (criteria, sort, page size). */
    searchOptions(query: InvoiceQuery) {
      return queries.searchInvoicesInfiniteOptions({ body: query });
    },
    /** One invoice, read with getInvoice (cached under its key, so a write to it invalidates it). */
    invoice(invoiceId: number) {
      return queryClient.fetchQuery(queries.getInvoiceOptions({ path: { invoice_id: invoiceId } }));
    },
    companyClients() {
      return queryClient.fetchQuery(queries.listCompanyClientsOptions());
    },
    /** The account's deliveries, read once. */
    deliveries() {
      return queryClient.fetchQuery(queries.listDeliveriesOptions(deliveryListQuery));
    },
    /**
     * The account's deliveries, observed once read: refetched when a delivery write invalidates them.
     * It starts from what `deliveries()` read (no second read when it subscribes).
     */
    deliveryList() {
      return new QueryObserver(queryClient, { ...queries.listDeliveriesOptions(deliveryListQuery), refetchOnMount: false });
    },
    createDelivery(variables: MutationVariables['createDelivery']): Promise<{ delivery: Delivery }> {
      return new MutationObserver(queryClient, queries.createDeliveryMutation()).mutate(variables);
    },
    issueDelivery(variables: MutationVariables['issueDelivery']): Promise<Delivery> {
      return new MutationObserver(queryClient, queries.issueDeliveryMutation()).mutate(variables);
    },
  };
}

export type AppData = ReturnType<typeof createAppData>;
