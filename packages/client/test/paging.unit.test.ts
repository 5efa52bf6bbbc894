import { describe, expect, it } from 'vitest';
import { loadSpec } from '@invoice-api/contract';
import { clientPagingModule, pagingTable } from '../../../scripts/lib/generate-paging.mjs';
import { ApiCallError, createApiClient, items, pages } from '../src/index.js';
import { errorBody, scriptedFetch, type ScriptedAnswer } from './fake-fetch.js';

const baseUrl = 'http://api.test';

function invoice(id: number) {
  return {
    id,
    invoice_number: `INV-${id}`,
    client_id: 1,
    client_name: 'Muster AG',
    amount: id,
    currency: 'CHF',
    status: 'paid',
    due_date: '2026-01-31',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    description: '',
  };
}

function delivery(id: number) {
  return {
    id,
    delivery_nr: `LS-${id}`,
    contact_id: 2,
    delivery_date: null,
    status: 'draft',
    total_amount: 0,
    currency: 'CHF',
    items: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

/** A search page of `ids` at `offset` of `total`, with `next_cursor` unless `cursor` is null. */
function searchPage(ids: number[], offset: number, total: number, cursor: string | null): ScriptedAnswer {
  const hasMore = offset + ids.length < total;
  return {
    status: 200,
    body: {
      data: ids.map(invoice),
      pagination: { total, limit: 2, offset, has_more: hasMore, ...(hasMore && cursor !== null ? { next_cursor: cursor } : {}) },
    },
  };
}

const noSleep = { sleep: async () => undefined };
const bodies = (fake: ReturnType<typeof scriptedFetch>) => fake.seen.map((request) => JSON.parse(request.body) as Record<string, unknown>);

describe('items and pages of searchInvoices (cursor)', () => {
  it('follows next_cursor with the first request, stops on the page without one, and sends nothing after it', async () => {
    const fake = scriptedFetch(searchPage([1, 2], 0, 5, 'c1'), searchPage([3, 4], 2, 5, 'c2'), searchPage([5], 4, 5, 'never'));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const criteria = [{ field: 'status' as const, operator: '=' as const, value: 'paid' as const }];
    const seen: number[] = [];
    for await (const found of items(api, 'searchInvoices', { limit: 2, criteria })) seen.push(found.id);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(bodies(fake)).toEqual([
      { limit: 2, criteria },
      { limit: 2, criteria, cursor: 'c1' },
      { limit: 2, criteria, cursor: 'c2' },
    ]);
    expect(fake.remaining()).toBe(0);
  });

  it('starts at an offset, then continues by cursor without it', async () => {
    const fake = scriptedFetch(searchPage([11, 12], 10, 13, 'c1'), searchPage([13], 12, 13, null));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const walked = [];
    for await (const page of pages(api, 'searchInvoices', { limit: 2, offset: 10 })) walked.push(page.pagination.offset);
    expect(walked).toEqual([10, 12]);
    expect(bodies(fake)).toEqual([
      { limit: 2, offset: 10 },
      { limit: 2, cursor: 'c1' },
    ]);
  });

  it('pages by offset and has_more where an answer carries no cursor (an older service)', async () => {
    const fake = scriptedFetch(searchPage([1, 2], 0, 4, null), searchPage([3, 4], 2, 4, null));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const seen: number[] = [];
    for await (const found of items(api, 'searchInvoices', { limit: 2 })) seen.push(found.id);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(bodies(fake)).toEqual([{ limit: 2 }, { limit: 2, offset: 2 }]);
  });

  it('throws instead of looping when a page names the cursor it was asked with (a static mock)', async () => {
    const fake = scriptedFetch(searchPage([1, 2], 0, 5, 'same'), searchPage([1, 2], 0, 5, 'same'));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const walk = async () => {
      for await (const _ of pages(api, 'searchInvoices', { limit: 2 })) {
        // each page is the mock's one example
      }
    };
    await expect(walk()).rejects.toThrow(/cannot advance/);
    expect(fake.seen).toHaveLength(2);
  });

  it('asks once for an empty result', async () => {
    const fake = scriptedFetch(searchPage([], 0, 0, null));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const seen = [];
    for await (const found of items(api, 'searchInvoices')) seen.push(found);
    expect(seen).toEqual([]);
    expect(fake.seen).toHaveLength(1);
  });

  it('rides out a 429 mid-walk with the client retry (Retry-After), repeating no item', async () => {
    const fake = scriptedFetch(
      searchPage([1, 2], 0, 3, 'c1'),
      { status: 429, body: errorBody('rate_limited'), headers: { 'Retry-After': '1' } },
      searchPage([3], 2, 3, null),
    );
    const delays: number[] = [];
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep: async (ms) => void delays.push(ms) } });
    const seen: number[] = [];
    for await (const found of items(api, 'searchInvoices', { limit: 2 })) seen.push(found.id);
    expect(seen).toEqual([1, 2, 3]);
    expect(delays).toEqual([1000]);
    expect(bodies(fake).slice(1)).toEqual([
      { limit: 2, cursor: 'c1' },
      { limit: 2, cursor: 'c1' },
    ]);
  });

  it('throws ApiCallError for a page answered with an error, after the pages before it', async () => {
    const fake = scriptedFetch(searchPage([1, 2], 0, 3, 'c1'), {
      status: 400,
      body: { ...errorBody('invalid_request'), details: { field: 'cursor', issue: 'belongs to another search' } },
    });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: noSleep });
    const seen: number[] = [];
    const walk = async () => {
      for await (const found of items(api, 'searchInvoices', { limit: 2 })) seen.push(found.id);
    };
    await expect(walk()).rejects.toBeInstanceOf(ApiCallError);
    expect(seen).toEqual([1, 2]);
  });

  it('stops when the signal aborts between pages, sending no further request', async () => {
    const fake = scriptedFetch(searchPage([1, 2], 0, 5, 'c1'), searchPage([3, 4], 2, 5, 'c2'));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const controller = new AbortController();
    const seen: number[] = [];
    const walk = async () => {
      for await (const found of items(api, 'searchInvoices', { limit: 2 }, { signal: controller.signal })) {
        seen.push(found.id);
        if (found.id === 2) controller.abort(new Error('the user left'));
      }
    };
    await expect(walk()).rejects.toThrow('the user left');
    expect(seen).toEqual([1, 2]);
    expect(fake.seen).toHaveLength(1);
  });

  it('aborts the request in flight', async () => {
    const controller = new AbortController();
    let started = 0;
    const fetch = (request: Request) =>
      new Promise<Response>((_, reject) => {
        started += 1;
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
        queueMicrotask(() => controller.abort(new Error('cancelled in flight')));
      });
    const api = createApiClient({ baseUrl, token: 't', fetch, retry: noSleep });
    const walk = async () => {
      for await (const _ of pages(api, 'searchInvoices', {}, { signal: controller.signal })) throw new Error('no page expected');
    };
    await expect(walk()).rejects.toThrow();
    expect(started).toBe(1);
  });
});

describe('items of listDeliveries (offset, no total)', () => {
  const page = (ids: number[]): ScriptedAnswer => ({ status: 200, body: { deliveries: ids.map(delivery) } });

  it('stops at the first page shorter than the limit', async () => {
    const fake = scriptedFetch(page([1, 2]), page([3, 4]), page([5]));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const seen: number[] = [];
    for await (const found of items(api, 'listDeliveries', { limit: 2 })) seen.push(found.id);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(fake.seen.map((request) => request.url.search)).toEqual(['?limit=2', '?limit=2&offset=2', '?limit=2&offset=4']);
  });

  it('uses the spec default limit when none is given, and ends on the empty page after a full last one', async () => {
    const limit = pagingTable(loadSpec()).listDeliveries?.limit.default ?? 0;
    const full = Array.from({ length: limit }, (_, index) => index + 1);
    const fake = scriptedFetch(page(full), page([]));
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    let count = 0;
    for await (const _ of items(api, 'listDeliveries')) count += 1;
    expect(count).toBe(limit);
    expect(fake.seen.map((request) => request.url.searchParams.get('offset'))).toEqual([null, String(limit)]);
  });
});

describe('the paging table, from the spec', () => {
  it('pages searchInvoices by cursor and listDeliveries by offset, and nothing that takes no limit', () => {
    const table = pagingTable(loadSpec());
    expect(Object.keys(table).sort()).toEqual(['listDeliveries', 'searchInvoices']);
    expect(table.searchInvoices).toMatchObject({ request: 'body', items: 'data', cursor: { request: 'cursor', response: ['pagination', 'next_cursor'] } });
    expect(table.listDeliveries).toMatchObject({ request: 'query', items: 'deliveries', cursor: null, hasMore: null, total: null });
  });

  it('does not page an operation whose 200 answer is not JSON, whatever its request takes (a CSV export has no items)', () => {
    const spec = structuredClone(loadSpec()) as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const list = spec.paths['/2.0/delivery']?.get;
    if (list === undefined) throw new Error('no listDeliveries');
    list.responses['200'] = { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } };
    expect(Object.keys(pagingTable(spec))).toEqual(['searchInvoices']);
  });

  it('fails the generation for an operation that takes a cursor but answers no next_cursor', () => {
    const spec = structuredClone(loadSpec()) as unknown as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    delete spec.components.schemas.Pagination?.properties.next_cursor;
    expect(() => clientPagingModule(spec, '')).toThrow(/searchInvoices takes a cursor but its 200 answer has no next_cursor/);
  });
});
