import { MutationObserver, type QueryClient } from '@tanstack/query-core';
import { ApiCallError, type QueryOptions } from '@invoice-api/client/query';

/** One invoice's number, or undefined when there is no such invoice (404). */
export async function invoiceNumber(queryClient: QueryClient, q: QueryOptions, invoiceId: number): Promise<string | undefined> {
  try {
    const { invoice } = await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: invoiceId } }));
    return invoice.invoice_number;
  } catch (error) {
    // error.result: the status and the spec's Error body, typed for getInvoice.
    if (error instanceof ApiCallError && error.result.status === 404) return undefined;
    throw error;
  }
}

/** The first three pages of paid invoices, by cursor: the first request sends none, each next one the previous page's next_cursor. */
export async function firstPaidPages(queryClient: QueryClient, q: QueryOptions) {
  const paid = { field: 'status', operator: '=', value: 'paid' } as const;
  const data = await queryClient.fetchInfiniteQuery({ ...q.searchInvoicesInfiniteOptions({ body: { criteria: [paid], limit: 20 } }), pages: 3 });
  return data.pages.flatMap((page) => page.data);
}

/** A new description; on success every invoice search and this invoice's read are invalidated (the active ones refetch). */
export function describeInvoice(queryClient: QueryClient, q: QueryOptions, invoiceId: number, description: string) {
  return new MutationObserver(queryClient, q.updateInvoiceMutation()).mutate({ path: { invoice_id: invoiceId }, body: { description } });
}

/** By hand, after a change the spec cannot know of (another tab, a push message): every invoice read is stale. */
export function invoicesChangedElsewhere(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: ['invoices'] });
}
