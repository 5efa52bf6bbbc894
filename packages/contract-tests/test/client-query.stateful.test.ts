// @invoice-api/client/query with a real QueryClient (@tanstack/query-core) against every stateful
// target (the service, directly and behind Prism's validation proxy, and the stateful mock): an
// infinite search by cursor (the first request sends no cursor, each next one the previous page's
// next_cursor, and the list ends at has_more false), an infinite list by offset, mutations whose
// onSuccess refetches the lists they make stale and invalidates the read of what they wrote, typed
// errors, and TanStack's signal reaching the request.
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, expectOk } from '@invoice-api/client';
import { ApiCallError, createQueryOptions } from '@invoice-api/client/query';
import type { SearchCriterion } from '@invoice-api/contract';
import { describeInvoice, firstPaidPages, invoiceNumber, invoicesChangedElsewhere } from '../../client/examples/query.js';
import { targetFetch, tokenFor } from '../src/clients.js';
import { companyClients, statefulTargets } from '../src/stateful.js';
import type { Target } from '../src/targets.js';

/** A client that keeps every request it sends (cloned, so the bodies can be read afterwards). */
async function recordingClient(target: Target) {
  const token = await tokenFor(target);
  const inner = targetFetch(target);
  const sent: Request[] = [];
  const api = createApiClient({
    baseUrl: target.baseUrl,
    retry: false,
    ...(token ? { token } : {}),
    fetch: (request) => {
      sent.push(request.clone());
      return inner(request);
    },
  });
  return { api, q: createQueryOptions(api), sent };
}

const bodyOf = async (request: Request | undefined) => JSON.parse((await request?.text()) ?? 'null') as Record<string, unknown>;
const clients: QueryClient[] = [];
/** Retries off: an error must reach the test at once, as it reaches a component. */
function newQueryClient(): QueryClient {
  // Fresh until invalidated: only the invalidations under test refetch (an invalidation refetches
  // active queries whatever their staleTime).
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  clients.push(client);
  return client;
}

afterEach(() => {
  for (const client of clients.splice(0)) client.clear();
});

describe.each(statefulTargets())('$name: TanStack Query options', (target) => {
  it('fetches three pages of a search by cursor: no cursor on the first request, then each page’s next_cursor', async () => {
    const { api, q, sent } = await recordingClient(target);
    const queryClient = newQueryClient();
    // The second client: no scenario writes invoices for it, so nothing shifts under the pages.
    const [, client] = await companyClients(target);
    const search = {
      criteria: [{ field: 'client_id', operator: '=', value: client?.id ?? 0 } satisfies SearchCriterion],
      order_by: 'amount' as const,
      order_direction: 'desc' as const,
    };
    const firstFifteen = await expectOk(api.searchInvoices({ ...search, limit: 15 }));
    expect(firstFifteen.pagination.total).toBeGreaterThan(15);
    sent.length = 0;

    const data = await queryClient.fetchInfiniteQuery({ ...q.searchInvoicesInfiniteOptions({ body: { ...search, limit: 5 } }), pages: 3 });
    expect(data.pages.flatMap((page) => page.data)).toEqual(firstFifteen.data);
    const bodies = await Promise.all(sent.map(bodyOf));
    expect(bodies).toHaveLength(3);
    expect(Object.keys(bodies[0] ?? {})).not.toContain('cursor');
    expect(bodies[1]?.cursor).toBe(data.pages[0]?.pagination.next_cursor);
    expect(bodies[2]?.cursor).toBe(data.pages[1]?.pagination.next_cursor);
    expect(typeof bodies[1]?.cursor).toBe('string');
    expect(data.pageParams).toEqual([null, bodies[1]?.cursor, bodies[2]?.cursor]);
    // The cached pages sit under the documented key.
    expect(queryClient.getQueryData(q.searchInvoicesInfiniteQueryKey({ body: { ...search, limit: 5 } }))).toEqual(data);
  });

  it('ends the infinite list where the answer says has_more false, with no request after it', async () => {
    const { api, q, sent } = await recordingClient(target);
    const queryClient = newQueryClient();
    const [, client] = await companyClients(target);
    const search = { criteria: [{ field: 'client_id', operator: '=', value: client?.id ?? 0 } satisfies SearchCriterion], order_by: 'amount' as const };
    const { total } = (await expectOk(api.searchInvoices({ ...search, limit: 1 }))).pagination;
    sent.length = 0;
    const options = q.searchInvoicesInfiniteOptions({ body: { ...search, limit: Math.ceil(total / 2) } });
    // Asked for up to ten pages, it stops after the second, the one that says nothing follows.
    const data = await queryClient.fetchInfiniteQuery({ ...options, pages: 10 });
    expect(sent).toHaveLength(2);
    expect(data.pages.at(-1)?.pagination).toMatchObject({ has_more: false });
    expect(data.pages.flatMap((page) => page.data)).toHaveLength(total);
    expect(new InfiniteQueryObserver(queryClient, options).getCurrentResult().hasNextPage).toBe(false);
  });

  it('pages deliveries by offset: the first request from the given offset (0), the second from after the first page', async () => {
    const { q, sent } = await recordingClient(target);
    const queryClient = newQueryClient();
    const data = await queryClient.fetchInfiniteQuery({ ...q.listDeliveriesInfiniteOptions({ query: { limit: 3 } }), pages: 2 });
    const offsets = sent.map((request) => new URL(request.url).searchParams.get('offset'));
    expect(offsets).toEqual(['0', '3']);
    expect(data.pageParams).toEqual([0, 3]);
    const ids = data.pages.flatMap((page) => page.deliveries.map((delivery) => delivery.id));
    expect(ids).toHaveLength(6);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('refetches the search after a create and an update, and invalidates the updated invoice’s read only', async () => {
    const { api, q } = await recordingClient(target);
    const queryClient = newQueryClient();
    const [client] = await companyClients(target);
    const marker = `query-options ${target.name} ${crypto.randomUUID()}`;
    const search = q.searchInvoicesOptions({ body: { criteria: [{ field: 'description', operator: 'like', value: marker }] } });
    expect((await queryClient.fetchQuery(search)).pagination.total).toBe(0);
    // An active search, as a mounted list is: invalidation refetches it.
    const list = new QueryObserver(queryClient, search);
    const unsubscribe = list.subscribe(() => undefined);
    try {
      const created = await new MutationObserver(queryClient, q.createInvoiceMutation()).mutate({
        body: { client_id: client?.id ?? 0, amount: 12.5, currency: 'CHF', due_date: '2027-03-31', description: `${marker} first` },
      });
      // The mutation settles after the refetch it caused: the new row is there without another call.
      expect(list.getCurrentResult().data?.data.map((invoice) => invoice.id)).toEqual([created.invoice.id]);

      const other = await expectOk(api.createInvoice({ client_id: client?.id ?? 0, amount: 1, currency: 'CHF', due_date: '2027-03-31' }));
      await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: created.invoice.id } }));
      await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: other.invoice.id } }));
      await new MutationObserver(queryClient, q.updateInvoiceMutation()).mutate({
        path: { invoice_id: created.invoice.id },
        body: { description: `${marker} edited` },
      });
      expect(list.getCurrentResult().data?.data.map((invoice) => invoice.description)).toEqual([`${marker} edited`]);
      expect(queryClient.getQueryState(q.getInvoiceQueryKey({ path: { invoice_id: created.invoice.id } }))?.isInvalidated).toBe(true);
      expect(queryClient.getQueryState(q.getInvoiceQueryKey({ path: { invoice_id: other.invoice.id } }))?.isInvalidated).toBe(false);
    } finally {
      unsubscribe();
    }
  });

  it('refreshes the delivery list and the delivery’s own read when a draft is created and issued', async () => {
    const { q } = await recordingClient(target);
    const queryClient = newQueryClient();
    const [client] = await companyClients(target);
    // Deliveries are listed by id, so a new one is on the last page: one page of 1000 holds them all.
    const listOptions = q.listDeliveriesOptions({ query: { limit: 1000 } });
    await queryClient.fetchQuery(listOptions);
    const list = new QueryObserver(queryClient, listOptions);
    const unsubscribeList = list.subscribe(() => undefined);
    try {
      const draft = await new MutationObserver(queryClient, q.createDeliveryMutation()).mutate({ body: { contact_id: client?.id ?? 0 } });
      expect(list.getCurrentResult().data?.deliveries.map((delivery) => delivery.id)).toContain(draft.delivery.id);

      const readOptions = q.getDeliveryOptions({ path: { delivery_id: draft.delivery.id } });
      expect((await queryClient.fetchQuery(readOptions)).delivery.status).toBe('draft');
      const read = new QueryObserver(queryClient, readOptions);
      const unsubscribeRead = read.subscribe(() => undefined);
      try {
        await new MutationObserver(queryClient, q.issueDeliveryMutation()).mutate({
          body: { delivery_id: draft.delivery.id, contact_id: client?.id ?? 0, items: [{ item_id: 1, quantity: 1, unit_price: 2.5 }] },
        });
        expect(read.getCurrentResult().data?.delivery.status).toBe('issued');
        expect(list.getCurrentResult().data?.deliveries.find((delivery) => delivery.id === draft.delivery.id)?.status).toBe('issued');
      } finally {
        unsubscribeRead();
      }
    } finally {
      unsubscribeList();
    }
  });

  it('throws ApiCallError with the status and the Error body, for queries and mutations', async () => {
    const { q } = await recordingClient(target);
    const queryClient = newQueryClient();
    const missing = await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: 2_147_483_647 } })).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiCallError);
    if (!(missing instanceof ApiCallError)) throw new Error('unreachable');
    expect(missing.operationId).toBe('getInvoice');
    expect(missing.result.status).toBe(404);
    expect(missing.result.error).toMatchObject({ error: 'not_found' });

    // limit 0 is a number to the compiler; the service's 400 says it is below the minimum.
    const invalid = await queryClient.fetchQuery(q.searchInvoicesOptions({ body: { limit: 0 } })).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ApiCallError);
    expect((invalid as ApiCallError<'searchInvoices'>).result).toMatchObject({ status: 400, error: { error: 'invalid_request', details: { field: 'limit' } } });

    const mutation = new MutationObserver(queryClient, q.issueDeliveryMutation());
    const refused = await mutation
      .mutate({ body: { delivery_id: 2_147_483_647, contact_id: 1, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiCallError);
    expect(mutation.getCurrentResult().error).toBe(refused);
    expect((refused as ApiCallError<'issueDelivery'>).result).toMatchObject({ status: 404, error: { error: 'not_found' } });
  });

  it('runs the README’s example (packages/client/examples/query.ts) as written', async () => {
    const { api, q, sent } = await recordingClient(target);
    const queryClient = newQueryClient();
    const [client] = await companyClients(target);
    const { invoice } = await expectOk(api.createInvoice({ client_id: client?.id ?? 0, amount: 3, currency: 'CHF', due_date: '2027-05-31' }));
    expect(await invoiceNumber(queryClient, q, invoice.id)).toBe(invoice.invoice_number);
    expect(await invoiceNumber(queryClient, q, 2_147_483_647)).toBeUndefined();

    sent.length = 0;
    const paid = await firstPaidPages(queryClient, q);
    expect(paid).toHaveLength(60);
    expect(paid.every((row) => row.status === 'paid')).toBe(true);
    expect(sent).toHaveLength(3);

    const read = q.getInvoiceQueryKey({ path: { invoice_id: invoice.id } });
    expect((await describeInvoice(queryClient, q, invoice.id, 'described by the README example')).invoice.description).toBe('described by the README example');
    expect(queryClient.getQueryState(read)?.isInvalidated).toBe(true);
    await queryClient.fetchQuery(q.getInvoiceOptions({ path: { invoice_id: invoice.id } }));
    expect(queryClient.getQueryState(read)?.isInvalidated).toBe(false);
    await invoicesChangedElsewhere(queryClient);
    expect(queryClient.getQueryState(read)?.isInvalidated).toBe(true);
  });

  it('passes TanStack’s signal to the request: cancelling the query aborts it', async () => {
    const token = await tokenFor(target);
    let arrived: (request: Request) => void = () => undefined;
    const requestArrived = new Promise<Request>((resolve) => (arrived = resolve));
    // Holds the request until it is aborted, so the cancellation meets a request in flight.
    const api = createApiClient({
      baseUrl: target.baseUrl,
      retry: false,
      ...(token ? { token } : {}),
      fetch: (request) => {
        arrived(request);
        return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }));
      },
    });
    const q = createQueryOptions(api);
    const queryClient = newQueryClient();
    const options = q.getHealthOptions();
    const fetching = queryClient.fetchQuery(options).catch((error: unknown) => error);
    const request = await requestArrived;
    expect(request.signal.aborted).toBe(false);
    await queryClient.cancelQueries({ queryKey: options.queryKey });
    expect(request.signal.aborted).toBe(true);
    await fetching;
  });
});
