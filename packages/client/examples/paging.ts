import { items, pages, type ApiClient } from '@invoice-api/client';

/** The total amount of a client's paid invoices, read page by page (by cursor, 200 at a time). */
export async function paidTotal(api: ApiClient, clientId: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  const criteria = [
    { field: 'client_id' as const, operator: '=' as const, value: clientId },
    { field: 'status' as const, operator: '=' as const, value: 'paid' as const },
  ];
  for await (const invoice of items(api, 'searchInvoices', { criteria, limit: 200 }, { signal })) total += invoice.amount;
  return total;
}

/** Every delivery, one page (by offset) at a time, e.g. to show progress. */
export async function deliveryPages(api: ApiClient): Promise<number[]> {
  const sizes: number[] = [];
  for await (const page of pages(api, 'listDeliveries', { limit: 100 })) sizes.push(page.deliveries.length);
  return sizes;
}
