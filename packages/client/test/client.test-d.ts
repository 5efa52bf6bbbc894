// Type-level tests: `pnpm typecheck` compiles this file, so each `@ts-expect-error` must be a real
// error. If the client's types loosen (an `any` body, an `unknown` error), a directive goes unused
// and the compile fails.
import { expectTypeOf } from 'vitest';
import type { ApiError, Delivery, InvoiceSearchResult, OperationId } from '@invoice-api/contract';
import { createApiClient, type ApiClient, type ApiResult } from '../src/index.js';

const api = createApiClient({ baseUrl: 'http://127.0.0.1:4010', token: 't' });

// Every operationId of the spec is a function of the client.
expectTypeOf<Exclude<OperationId, keyof ApiClient>>().toEqualTypeOf<never>();

export async function bodies() {
  await api.searchInvoices({ limit: 10, criteria: [{ field: 'status', operator: '=', value: 'paid' }] });
  await api.searchInvoices();
  // @ts-expect-error limit is an integer, not a string
  await api.searchInvoices({ limit: '10' });
  // @ts-expect-error unknown property in a closed request body
  await api.searchInvoices({ page: 2 });
  // @ts-expect-error order_direction is asc | desc
  await api.searchInvoices({ order_direction: 'up' });

  await api.issueDelivery({ delivery_id: 1, contact_id: 2, items: [{ item_id: 3, quantity: 1, unit_price: 9.5 }] });
  // @ts-expect-error items is required
  await api.issueDelivery({ delivery_id: 1, contact_id: 2 });
  // @ts-expect-error quantity is a number
  await api.issueDelivery({ delivery_id: 1, contact_id: 2, items: [{ item_id: 3, quantity: '1', unit_price: 9.5 }] });
  // @ts-expect-error issue needs a body
  await api.issueDelivery();

  // @ts-expect-error a path id is a number
  await api.getInvoice('1');
  // @ts-expect-error status must be one of the five
  await api.updateInvoice(1, { status: 'archived' });
  // @ts-expect-error listDeliveries takes limit/offset only
  await api.listDeliveries({ page: 1 });
}

export async function results() {
  const issued = await api.issueDelivery({ delivery_id: 1, contact_id: 2, items: [{ item_id: 3, quantity: 1, unit_price: 1 }] });
  expectTypeOf(issued).toEqualTypeOf<ApiResult<'issueDelivery'>>();
  if (issued.ok) {
    expectTypeOf(issued.data).toEqualTypeOf<Delivery>();
  } else {
    // The documented errors are the spec's Error object, never unknown.
    expectTypeOf(issued.error).toEqualTypeOf<ApiError>();
    expectTypeOf(issued.error.error).toEqualTypeOf<ApiError['error']>();
  }

  const found = await api.searchInvoices();
  if (found.ok) expectTypeOf(found.data).toEqualTypeOf<InvoiceSearchResult>();
  // @ts-expect-error data is only there after checking ok
  found.data.pagination;
}
