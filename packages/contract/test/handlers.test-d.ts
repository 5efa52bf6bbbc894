// Type-level tests: `pnpm typecheck` compiles this file, so every `@ts-expect-error` below must
// really be an error. If the generated contract is loosened (an `any`, an optional status, a body
// that accepts anything), the directive becomes unused and the compile fails.
import createClient from 'openapi-fetch';
import { expectTypeOf } from 'vitest';
import type { Handler, HandlerMap, HandlerResponse, Invoice, paths } from '../src/index.js';

type Ctx = { accountId: number };

const invoice: Invoice = {
  id: 1,
  invoice_number: 'INV-000001',
  client_id: 2,
  client_name: 'Muster AG',
  amount: 10,
  currency: 'CHF',
  status: 'draft',
  due_date: '2026-12-31',
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  description: '',
};

// A documented status with its own body compiles.
export const getInvoice: Handler<'getInvoice', Ctx> = async () => ({ status: 200, headers: { ETag: '"1-1"' }, body: { invoice } });
export const notFound: Handler<'getInvoice', Ctx> = async () => ({
  status: 404,
  body: { error: 'not_found', message: 'Invoice 1 was not found.' },
});

// @ts-expect-error getInvoice's 200 needs headers.ETag (the spec declares it).
export const getWithoutETag: Handler<'getInvoice', Ctx> = async () => ({ status: 200, body: { invoice } });

// @ts-expect-error 201 is not a documented answer of getInvoice.
export const undocumentedStatus: Handler<'getInvoice', Ctx> = async () => ({ status: 201, body: { invoice } });

// @ts-expect-error the 200 body of getInvoice is {invoice}, not the bare invoice.
export const wrongBody: Handler<'getInvoice', Ctx> = async () => ({ status: 200, body: invoice });

// A field the spec does not have is rejected in a fresh object literal. (TypeScript skips excess-property
// checks on literals returned from async arrows; response validation catches those at run time.)
export const extraField: HandlerResponse<'listUsers'> = {
  status: 200,
  body: {
    users: [
      // @ts-expect-error `password` is not a User property.
      { id: 1, name: 'Anna', email: 'anna@example.com', role: 'admin', created_at: '2026-01-01T00:00:00.000Z', password: 'x' },
    ],
  },
};

// @ts-expect-error an error code outside the spec's ErrorCode enum.
export const unknownCode: Handler<'getInvoice', Ctx> = async () => ({ status: 404, body: { error: 'missing', message: 'x' } });

// A 201 must carry its Location header.
// @ts-expect-error createInvoice's 201 needs headers.Location.
export const createWithoutLocation: Handler<'createInvoice', Ctx> = async () => ({ status: 201, body: { invoice } });
export const createWithLocation: Handler<'createInvoice', Ctx> = async () => ({
  status: 201,
  body: { invoice },
  headers: { Location: '/api/v1/invoices/1' },
});

// Handlers receive typed input.
export const typedInput: Handler<'updateInvoice', Ctx> = async (request) => {
  expectTypeOf(request.params.invoice_id).toEqualTypeOf<number>();
  expectTypeOf(request.body.status).toEqualTypeOf<Invoice['status'] | undefined>();
  // @ts-expect-error updateInvoice has no `total` property.
  void request.body.total;
  return { status: 200, headers: { ETag: '"1-2"' }, body: { invoice } };
};
export const optionalSearchBody: Handler<'searchInvoices', Ctx> = async (request) => {
  // The search body is optional: an absent body means all defaults.
  expectTypeOf(request.body).toExtend<{ limit?: number } | undefined>();
  return { status: 200, body: { data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false } } };
};

// The handler map must name every operation.
// @ts-expect-error a map with only one handler misses the other thirteen operations.
export const incompleteMap: HandlerMap<Ctx> = { getInvoice };

expectTypeOf<HandlerResponse<'issueDelivery'>['status']>().toEqualTypeOf<200 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503>();
// A header the spec does not declare on an answer is not the handler's to set.
// @ts-expect-error issueDelivery's 200 declares no ETag.
export const issueWithETag: Handler<'issueDelivery', Ctx> = async () => ({
  status: 200,
  headers: { ETag: '"1-1"' },
  body: {} as HandlerResponse<'issueDelivery'> extends { status: 200; body: infer B } ? B : never,
});

// The client side: openapi-fetch over the generated `paths`.
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });
export async function clientCalls(): Promise<void> {
  const ok = await client.POST('/api/v1/invoices/search', { body: { limit: 10, criteria: [{ field: 'status', operator: '=', value: 'paid' }] } });
  if (ok.data) expectTypeOf(ok.data.data).toEqualTypeOf<Invoice[]>();
  if (ok.error) expectTypeOf(ok.error.error).toExtend<string>();

  // @ts-expect-error `limit` is a number, not a string.
  await client.POST('/api/v1/invoices/search', { body: { limit: '10' } });
  // @ts-expect-error `client_name` is not a searchable field.
  await client.POST('/api/v1/invoices/search', { body: { criteria: [{ field: 'client_name', operator: '=', value: 'x' }] } });
  // @ts-expect-error issueDelivery needs delivery_id, contact_id and items.
  await client.POST('/2.0/delivery/issue', { body: { contact_id: 1 } });
  // @ts-expect-error a path that the spec does not have.
  await client.GET('/api/v1/invoice/{invoice_id}', { params: { path: { invoice_id: 1 } } });
}
