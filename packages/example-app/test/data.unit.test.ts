// The app's data layer (src/data.ts) in Node on the client's generated MSW handlers (`setupServer`):
// the invoice list pages by cursor, the detail is the getInvoice read, a delivery write refetches the
// observed delivery list (and a failed one does not), and an invalid search (what the form sends for what a user typed) is refused
// as the service refuses it, in words the problem panel shows. The handlers answer the spec's examples, so every
// expectation is read from the spec.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallError, createApiClient, type SuccessData } from '@invoice-api/client';
import { createHandlers, operationHandlers } from '@invoice-api/client/msw';
import type { OperationId } from '@invoice-api/contract';
import { toCriterion } from '../src/criteria.js';
import { createAppData, type AppData, type InvoiceQuery } from '../src/data.js';
import { problemFromFailure } from '../src/problems.js';
import { firstExample } from './spec-examples.js';

const baseUrl = 'http://api.msw.invalid';
const server = setupServer(...createHandlers({ baseUrl }));
/** What the handlers were asked, in order: method, path and JSON body (if any). */
const received: Array<{ method: string; path: string; body: unknown }> = [];
let data: AppData;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', async ({ request }) => {
    const text = await request.clone().text();
    received.push({ method: request.method, path: new URL(request.url).pathname, body: text === '' ? undefined : JSON.parse(text) });
  });
});
afterEach(() => {
  server.resetHandlers();
  data.queryClient.clear();
  received.length = 0;
});
afterAll(() => server.close());

function freshData(): AppData {
  // Created after listen(): the client's fetch is the one MSW intercepts. No retries: one answer each.
  data = createAppData(createApiClient({ baseUrl, token: 'test-token', retry: false }));
  return data;
}

function requestsTo(method: string, path: string) {
  return received.filter((request) => request.method === method && request.path === path);
}

const searchPath = '/api/v1/invoices/search';
const deliveriesPath = '/2.0/delivery';
const query: InvoiceQuery = { criteria: [{ field: 'status', operator: '=', value: 'paid' }], order_by: 'amount', order_direction: 'asc', limit: 10 };

describe('the example app data layer on the generated MSW handlers', () => {
  it('loads the invoice list by cursor: the first page without one, the next with the answer’s next_cursor', async () => {
    const { queryClient, invoiceList, searchOptions } = freshData();
    const example = firstExample<SuccessData<'searchInvoices'>>(searchPath, 'post', 200);
    const list = invoiceList(query);
    const stop = list.subscribe(() => undefined);
    await queryClient.fetchInfiniteQuery(searchOptions(query));
    expect(list.getCurrentResult().hasNextPage).toBe(true);
    const second = await list.fetchNextPage();
    stop();

    expect(second.data?.pages).toEqual([example, example]);
    const [first, next] = requestsTo('POST', searchPath).map((request) => request.body);
    expect(requestsTo('POST', searchPath)).toHaveLength(2);
    expect(first).toEqual(query);
    expect(next).toEqual({ ...query, cursor: example.pagination.next_cursor });
  });

  it('reads an invoice’s detail with getInvoice', async () => {
    const example = firstExample<SuccessData<'getInvoice'>>('/api/v1/invoices/{invoice_id}', 'get', 200);
    expect(await freshData().invoice(example.invoice.id)).toEqual(example);
    expect(requestsTo('GET', `/api/v1/invoices/${example.invoice.id}`)).toHaveLength(1);
  });

  it('refetches the observed delivery list after a delivery is created and after it is issued', async () => {
    const { deliveries, deliveryList, createDelivery, issueDelivery } = freshData();
    const listed = firstExample<SuccessData<'listDeliveries'>>(deliveriesPath, 'get', 200);
    expect(await deliveries()).toEqual(listed);
    const seen: number[] = [];
    const stop = deliveryList().subscribe((result) => seen.push(result.dataUpdatedAt));
    // Subscribing starts from what was read: no second read.
    expect(requestsTo('GET', deliveriesPath)).toHaveLength(1);

    const { delivery } = await createDelivery({ body: { contact_id: 7, items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] } });
    expect(requestsTo('GET', deliveriesPath)).toHaveLength(2);
    await issueDelivery({ body: { delivery_id: delivery.id, contact_id: delivery.contact_id, items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] } });
    expect(requestsTo('GET', deliveriesPath)).toHaveLength(3);
    stop();
    // Each refetch reached the observer (a new dataUpdatedAt each time).
    expect(new Set(seen.filter((updatedAt) => updatedAt > 0)).size).toBeGreaterThanOrEqual(2);
  });

  it('leaves the delivery list alone when the write fails (one answer overridden with server.use)', async () => {
    const { deliveries, deliveryList, createDelivery } = freshData();
    await deliveries();
    const stop = deliveryList().subscribe(() => undefined);
    server.use(operationHandlers.createDelivery({ baseUrl, override: { status: 400 } }));
    const failed = createDelivery({ body: { contact_id: 7, items: [{ item_id: 5001, quantity: 1, unit_price: 1 }] } });
    await expect(failed).rejects.toBeInstanceOf(ApiCallError);
    stop();
    expect(requestsTo('GET', deliveriesPath)).toHaveLength(1);
  });

  it('gets the service’s 400 for a criterion value it rejects, and shows its message and the field it names', async () => {
    const { queryClient, searchOptions } = freshData();
    const thrown: unknown = await queryClient
      .fetchInfiniteQuery(searchOptions({ criteria: [toCriterion({ field: 'amount', operator: '>', value: 'a lot' })], limit: 10 }))
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApiCallError);
    const { result }: ApiCallError<OperationId> = thrown as ApiCallError<OperationId>;
    expect(result.status).toBe(400);
    const problem = problemFromFailure('Search', result);
    expect(problem).toMatchObject({ action: 'Search', title: '400 invalid_request', detail: expect.stringMatching(/^amount: /) });
    expect(problem.message).toEqual(expect.stringContaining('amount'));
  });
});
