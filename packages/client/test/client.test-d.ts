// Type-level tests: `pnpm typecheck` compiles this file, so each `@ts-expect-error` must be a real
// error. If the client's types loosen (an `any` body, an `unknown` error), a directive goes unused
// and the compile fails.
import { expectTypeOf } from 'vitest';
import type { ApiError, Delivery, InvoiceSearchResult, OperationId } from '@invoice-api/contract';
import { NetworkError, createApiClient, type ApiClient, type ApiResult, type FailedCall } from '../src/index.js';

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

export async function headerOptions() {
  const body = { client_id: 1, amount: 1, currency: 'CHF' as const, due_date: '2026-12-31' };
  // The keyed writes take the caller's own Idempotency-Key ...
  await api.createInvoice(body, { idempotencyKey: 'k' });
  await api.createDelivery({ contact_id: 2 }, { idempotencyKey: 'k' });
  await api.issueDelivery({ delivery_id: 1, contact_id: 2, items: [] }, { idempotencyKey: 'k', requestId: 'r' });
  // ... the updates take If-Match ...
  await api.updateInvoice(1, { description: 'x' }, { ifMatch: '"1-2"' });
  await api.updateDelivery(1, { contact_id: 2 }, { ifMatch: '*' });
  // ... and no operation takes the other's, or one it does not declare.
  // @ts-expect-error createInvoice declares no If-Match
  await api.createInvoice(body, { ifMatch: '"1-2"' });
  // @ts-expect-error updates declare no Idempotency-Key
  await api.updateInvoice(1, { description: 'x' }, { idempotencyKey: 'k' });
  // @ts-expect-error a read takes neither
  await api.getInvoice(1, { ifMatch: '*' });
  // @ts-expect-error the key is a string
  await api.createDelivery({ contact_id: 2 }, { idempotencyKey: 42 });

  createApiClient({ baseUrl: 'http://x', idempotencyKey: () => 'k' });
  // @ts-expect-error the client option makes keys; it is not one key
  createApiClient({ baseUrl: 'http://x', idempotencyKey: 'k' });
}

export async function resultHeaders() {
  // The spec declares a required ETag on reads and updates of invoices and deliveries: a string there.
  const read = await api.getInvoice(1);
  if (read.ok) expectTypeOf(read.etag).toEqualTypeOf<string>();
  const updated = await api.updateDelivery(1, {});
  if (updated.ok) expectTypeOf(updated.etag).toEqualTypeOf<string>();
  // Elsewhere, and on errors, it may be absent.
  const created = await api.createInvoice({ client_id: 1, amount: 1, currency: 'CHF', due_date: '2026-12-31' });
  if (created.ok) expectTypeOf(created.etag).toEqualTypeOf<string | undefined>();
  if (!read.ok) expectTypeOf(read.etag).toEqualTypeOf<string | undefined>();
  expectTypeOf(created.idempotencyKey).toEqualTypeOf<string | undefined>();
  expectTypeOf(created.replayed).toEqualTypeOf<boolean>();

  const failure: unknown = undefined;
  if (failure instanceof NetworkError) expectTypeOf(failure.call).toEqualTypeOf<FailedCall | undefined>();
}
