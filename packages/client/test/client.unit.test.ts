import { describe, expect, it } from 'vitest';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { ApiCallError, UnexpectedResponseError, createApiClient, expectOk, isSafeOperation } from '../src/index.js';
import { errorBody, scriptedFetch } from './fake-fetch.js';
import { sampleDelivery } from './sample-answers.js';

const baseUrl = 'http://api.test';
const page = { data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false } };
const delivery = sampleDelivery;
const issueBody = { delivery_id: 7, contact_id: 2, items: [{ item_id: 3, quantity: 1, unit_price: 10 }] };

/** Records the delays asked for instead of waiting. */
function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

describe('authentication and request id', () => {
  it('sends a fixed token as a bearer token and a fresh X-Request-Id per call', async () => {
    const fake = scriptedFetch({ status: 200, body: page }, { status: 200, body: page });
    const api = createApiClient({ baseUrl, token: 'tok-1', fetch: fake.fetch });
    const first = await api.searchInvoices({ limit: 5 });
    await api.searchInvoices();
    expect(fake.seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-1']);
    const ids = fake.seen.map((r) => r.headers.get('x-request-id'));
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(first.requestId).toBe(ids[0]);
    expect(fake.seen[0]?.method).toBe('POST');
    expect(fake.seen[0]?.url.pathname).toBe('/api/v1/invoices/search');
    expect(JSON.parse(fake.seen[0]?.body ?? '')).toEqual({ limit: 5 });
  });

  it('asks getToken on every attempt, so a refreshed token is used on the retry', async () => {
    const fake = scriptedFetch({ status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '1' } }, { status: 200, body: { users: [] } });
    let issued = 0;
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, getToken: async () => `tok-${++issued}`, fetch: fake.fetch, retry: { sleep } });
    await api.listUsers();
    expect(fake.seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('refuses token and getToken together', () => {
    expect(() => createApiClient({ baseUrl, token: 'a', getToken: () => 'b' })).toThrow(/not both/);
  });

  it('sends no Authorization header without a token source, and honours a caller request id and extra headers', async () => {
    const fake = scriptedFetch({ status: 200, body: { status: 'ok' } });
    const api = createApiClient({ baseUrl, fetch: fake.fetch });
    const result = await api.getHealth({ requestId: 'trace-42', headers: { Prefer: 'code=200' } });
    expect(fake.seen[0]?.headers.has('authorization')).toBe(false);
    expect(fake.seen[0]?.headers.get('x-request-id')).toBe('trace-42');
    expect(fake.seen[0]?.headers.get('prefer')).toBe('code=200');
    expect(result).toMatchObject({ ok: true, data: { status: 'ok' }, requestId: 'trace-42' });
  });

  it('puts path and query parameters where the spec says', async () => {
    const fake = scriptedFetch({ status: 200, body: { delivery } }, { status: 200, body: { deliveries: [] } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    await api.getDelivery(7);
    await api.listDeliveries({ limit: 2, offset: 4 });
    expect(fake.seen[0]?.url.pathname).toBe('/2.0/delivery/7');
    expect(fake.seen[1]?.url.pathname).toBe('/2.0/delivery');
    expect(Object.fromEntries(fake.seen[1]?.url.searchParams ?? [])).toEqual({ limit: '2', offset: '4' });
  });
});

describe('typed errors', () => {
  it('returns the Error body of a documented error status, not an exception', async () => {
    const fake = scriptedFetch({ status: 409, body: { error: 'already_issued', message: 'Delivery 7 is already issued.' } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const result = await api.issueDelivery(issueBody);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(409);
    expect(result.error.error).toBe('already_issued');
    expect(result.error.message).toContain('7');
  });

  it('expectOk gives the data, or throws an ApiCallError that carries the Error body', async () => {
    const fake = scriptedFetch({ status: 200, body: delivery }, { status: 404, body: errorBody('not_found', 'Delivery 9 was not found.') });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    await expect(expectOk(api.issueDelivery(issueBody))).resolves.toMatchObject({ id: 7, status: 'issued' });
    const failure = await expectOk(api.getDelivery(9)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiCallError);
    expect((failure as ApiCallError<'getDelivery'>).result.error).toEqual({ error: 'not_found', message: 'Delivery 9 was not found.' });
  });

  it('throws UnexpectedResponseError when an error body is not a JSON object', async () => {
    const fake = scriptedFetch({ status: 502, body: '<html>bad gateway</html>', headers: { 'Content-Type': 'text/html' } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    await expect(api.getInvoice(1)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('throws UnexpectedResponseError when a success body is not JSON', async () => {
    const fake = scriptedFetch({ status: 200, body: 'not json' });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    await expect(api.getInvoice(1)).rejects.toThrow(/body is not JSON/);
  });
});

describe('retries', () => {
  it('retries a safe GET on 503 and 429, waiting at least Retry-After, with the same request id', async () => {
    const fake = scriptedFetch(
      { status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '2' } },
      { status: 429, body: errorBody('rate_limited'), headers: { 'Retry-After': '1' } },
      { status: 200, body: { users: [] } },
    );
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep, random: () => 0 } });
    const result = await api.listUsers();
    expect(result).toMatchObject({ ok: true, attempts: 3, data: { users: [] } });
    expect(delays).toEqual([2000, 1000]);
    expect(new Set(fake.seen.map((r) => r.headers.get('x-request-id'))).size).toBe(1);
  });

  it('retries the read-only search POST, resending the same body', async () => {
    const fake = scriptedFetch({ status: 429, body: errorBody('rate_limited'), headers: { 'Retry-After': '0' } }, { status: 200, body: page });
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    const result = await api.searchInvoices({ limit: 3, order_by: 'amount' });
    expect(result.ok).toBe(true);
    expect(fake.seen.map((r) => JSON.parse(r.body))).toEqual([
      { limit: 3, order_by: 'amount' },
      { limit: 3, order_by: 'amount' },
    ]);
  });

  it('uses exponential backoff with full jitter when there is no Retry-After', async () => {
    const fake = scriptedFetch(
      { status: 503, body: errorBody('service_unavailable') },
      { status: 503, body: errorBody('service_unavailable') },
      { status: 503, body: errorBody('service_unavailable') },
      { status: 200, body: { users: [] } },
    );
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({
      baseUrl,
      token: 't',
      fetch: fake.fetch,
      retry: { sleep, random: () => 0.5, baseDelayMs: 100, maxDelayMs: 300, maxAttempts: 4 },
    });
    await api.listUsers();
    // Windows 100, 200, then capped at 300; full jitter takes random() of each window.
    expect(delays).toEqual([50, 100, 150]);
  });

  it('retries a 503 whose body is not JSON (a gateway page), and returns the answer that follows', async () => {
    const fake = scriptedFetch(
      { status: 503, body: '<html>maintenance</html>', headers: { 'Content-Type': 'text/html' } },
      { status: 200, body: { users: [] } },
    );
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    expect(await api.listUsers()).toMatchObject({ ok: true, attempts: 2 });
  });

  it('stops after maxAttempts and returns the last typed error', async () => {
    const answers = Array.from({ length: 3 }, () => ({ status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '1' } }));
    const fake = scriptedFetch(...answers, { status: 200, body: { users: [] } });
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep, maxAttempts: 3 } });
    const result = await api.listUsers();
    expect(result).toMatchObject({ ok: false, status: 503, attempts: 3, error: { error: 'service_unavailable' } });
    expect(fake.remaining()).toBe(1);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const fake = scriptedFetch({ status: 429, body: errorBody('rate_limited'), headers: { 'Retry-After': '3600' } });
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    const result = await api.searchInvoices();
    expect(result).toMatchObject({ ok: false, status: 429, attempts: 1 });
    expect(delays).toEqual([]);
  });

  it('reads an HTTP-date Retry-After against the injected clock', async () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    const fake = scriptedFetch(
      { status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': 'Sat, 21 Nov 2026 10:00:05 GMT' } },
      { status: 200, body: { users: [] } },
    );
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep, now: () => now, random: () => 0 } });
    await api.listUsers();
    expect(delays).toEqual([5000]);
  });

  it.each([
    ['updateInvoice', (api: ReturnType<typeof createApiClient>) => api.updateInvoice(1, { description: 'x' })],
    ['updateDelivery', (api: ReturnType<typeof createApiClient>) => api.updateDelivery(7, { contact_id: 2 })],
  ])('never retries %s, which takes no idempotency key, even on 503 with Retry-After', async (_name, invoke) => {
    const fake = scriptedFetch({ status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '1' } }, { status: 200, body: {} });
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    const result = await invoke(api);
    expect(result).toMatchObject({ ok: false, status: 503, attempts: 1, idempotencyKey: undefined });
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]?.headers.has('idempotency-key')).toBe(false);
    expect(delays).toEqual([]);
  });

  it('retry: false turns retries off for safe operations too', async () => {
    const fake = scriptedFetch({ status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '0' } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: false });
    expect(await api.listUsers()).toMatchObject({ ok: false, attempts: 1 });
  });

  it('classifies operations from the spec: GETs and the read-scoped search and export are safe, writes are not (keyed writes are retried for their key, not for being safe)', () => {
    const safe: OperationId[] = [
      'searchInvoices',
      'exportInvoices',
      'getInvoice',
      'getInvoicePdf',
      'listInvoiceAttachments',
      'getInvoiceAttachment',
      'listUsers',
      'getUser',
      'listCompanyClients',
      'getCompanyClient',
      'listDeliveries',
      'getDelivery',
      'getHealth',
    ];
    const unsafe: OperationId[] = [
      'createInvoice',
      'updateInvoice',
      'deleteInvoice',
      'uploadInvoiceAttachment',
      'deleteInvoiceAttachment',
      'createDelivery',
      'updateDelivery',
      'issueDelivery',
      'deleteDelivery',
    ];
    expect(safe.filter((id) => !isSafeOperation(id))).toEqual([]);
    expect(unsafe.filter((id) => isSafeOperation(id))).toEqual([]);
    // Every operation of the spec is in one of the two lists, so a new one gets classified here.
    expect([...safe, ...unsafe].sort()).toEqual(Object.keys(operationTable).sort());
  });
});
