// Type-level tests of the paging helper: `pnpm typecheck` compiles this file, so each
// `@ts-expect-error` must be a real error.
import { expectTypeOf } from 'vitest';
import type { Delivery, Invoice, InvoiceSearchResult } from '@invoice-api/contract';
import { createApiClient, items, pages, type PagedOperationId, type PageItem } from '../src/index.js';

const api = createApiClient({ baseUrl: 'http://127.0.0.1:4010', token: 't' });

// Which operations page is the spec's answer, not a list kept here.
expectTypeOf<PagedOperationId>().toEqualTypeOf<'searchInvoices' | 'listDeliveries'>();
expectTypeOf<PageItem<'searchInvoices'>>().toEqualTypeOf<Invoice>();
expectTypeOf<PageItem<'listDeliveries'>>().toEqualTypeOf<Delivery>();

export async function walks(signal: AbortSignal) {
  for await (const invoice of items(api, 'searchInvoices', { criteria: [{ field: 'status', operator: '=', value: 'paid' }], order_by: 'amount' })) {
    expectTypeOf(invoice).toEqualTypeOf<Invoice>();
  }
  for await (const page of pages(api, 'searchInvoices', undefined, { signal, call: { headers: { Prefer: 'code=200' } } })) {
    expectTypeOf(page).toEqualTypeOf<InvoiceSearchResult>();
  }
  for await (const delivery of items(api, 'listDeliveries', { limit: 100 })) {
    expectTypeOf(delivery).toEqualTypeOf<Delivery>();
  }
  // @ts-expect-error getInvoice does not page
  items(api, 'getInvoice');
  // @ts-expect-error listUsers answers every user at once: it does not page
  items(api, 'listUsers');
  // @ts-expect-error the helper sends the cursor itself
  items(api, 'searchInvoices', { cursor: 'abc' });
  // @ts-expect-error the request is the operation's own: listDeliveries takes no criteria
  items(api, 'listDeliveries', { criteria: [] });
  // @ts-expect-error limit is an integer
  items(api, 'searchInvoices', { limit: '10' });
  // @ts-expect-error the signal goes in the paging options, not in each call's
  items(api, 'searchInvoices', {}, { call: { signal } });
}
