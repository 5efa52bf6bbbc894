// A frontend project's TanStack Query code on the packed client's `@invoice-api/client/query`, with
// @tanstack/query-core from the registry: type-checked with the rest of the consumer and run in Node
// against the Prism mock, whose static answers are enough to see the requests and the invalidation.
import { MutationObserver, QueryClient } from '@tanstack/query-core';
import { createApiClient } from '@invoice-api/client';
import { ApiCallError, createQueryOptions, type OperationError } from '@invoice-api/client/query';
import type { InvoiceSearchResult } from '@invoice-api/client/contract';

export interface QuerySummary {
  pages: number;
  /** The cursor of each request of the infinite search, in order (null: the request sent none). */
  cursors: Array<string | null>;
  invoiceNumber: string;
  searchInvalidated: boolean;
}

export async function querySummary(baseUrl: string): Promise<QuerySummary> {
  const cursors: Array<string | null> = [];
  const api = createApiClient({
    baseUrl,
    token: 'any-token-works-against-the-mock',
    retry: false,
    fetch: async (request) => {
      if (request.url.endsWith('/invoices/search')) {
        const body = (await request.clone().json()) as { cursor?: string };
        cursors.push(body.cursor ?? null);
      }
      return fetch(request);
    },
  });
  const q = createQueryOptions(api);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const search = { criteria: [{ field: 'status' as const, operator: '=' as const, value: 'paid' as const }], limit: 2 };
  const pages = await queryClient.fetchInfiniteQuery({ ...q.searchInvoicesInfiniteOptions({ body: search }), pages: 3 });
  const pageCursors = [...cursors];
  const { invoice } = await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: 1 } }));
  await queryClient.fetchQuery(q.searchInvoicesOptions({ body: search }));
  await new MutationObserver(queryClient, q.updateInvoiceMutation()).mutate({ path: { invoice_id: 1 }, body: { status: 'paid' } });
  return {
    pages: pages.pages.length,
    cursors: pageCursors,
    invoiceNumber: invoice.invoice_number,
    searchInvalidated: queryClient.getQueryState(q.searchInvoicesQueryKey({ body: search }))?.isInvalidated === true,
  };
}

// Never called: each directive must meet a real type error.
export function mistakes(q: ReturnType<typeof createQueryOptions>, queryClient: QueryClient, error: OperationError<'getInvoice'>) {
  // @ts-expect-error a path id is a number
  q.getInvoiceOptions({ path: { invoice_id: '1' } });
  // @ts-expect-error the cursor is the infinite list's own business
  q.searchInvoicesInfiniteOptions({ body: { cursor: 'abc' } });
  // The key is typed with its data: the cache answers an invoice search, not unknown.
  const cached: InvoiceSearchResult | undefined = queryClient.getQueryData(q.searchInvoicesQueryKey());
  // @ts-expect-error an invoice search has no `invoices`
  const wrong = queryClient.getQueryData(q.searchInvoicesQueryKey())?.invoices;
  return { cached, wrong, status: error instanceof ApiCallError ? error.result.status : undefined };
}
