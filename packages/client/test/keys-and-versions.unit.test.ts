// Idempotency keys, If-Match, ETag and network failures, through the injected fetch: which requests
// carry which header, which answers are retried with the same key, and what a call that got no
// answer throws.
import { describe, expect, it } from 'vitest';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { NetworkError, createApiClient, type ApiClient } from '../src/index.js';
import { errorBody, networkFailure, scriptedFetch } from './fake-fetch.js';
import { sampleAttachment, sampleDelivery, sampleInvoice } from './sample-answers.js';

const baseUrl = 'http://api.test';
const invoice = sampleInvoice;
const delivery = sampleDelivery;
const unavailable = { status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '1' } };

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

/** The four keyed writes, each with a body the fake answers and the success it answers. */
const keyedWrites: Array<
  [
    OperationId,
    (api: ApiClient, key?: string) => Promise<{ ok: boolean; idempotencyKey: string | undefined; attempts: number }>,
    { status: number; body: unknown },
  ]
> = [
  [
    'createInvoice',
    (api, key) => api.createInvoice({ client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-12-31' }, key ? { idempotencyKey: key } : undefined),
    { status: 201, body: { invoice } },
  ],
  [
    'uploadInvoiceAttachment',
    (api, key) =>
      api.uploadInvoiceAttachment(
        42,
        { file: new File([Buffer.from('%PDF-1.7\n%%EOF\n')], 'order.pdf', { type: 'application/pdf' }), note: 'Signed order' },
        key ? { idempotencyKey: key } : undefined,
      ),
    { status: 201, body: { attachment: sampleAttachment } },
  ],
  ['createDelivery', (api, key) => api.createDelivery({ contact_id: 2 }, key ? { idempotencyKey: key } : undefined), { status: 201, body: { delivery } }],
  [
    'issueDelivery',
    (api, key) =>
      api.issueDelivery({ delivery_id: 7, contact_id: 2, items: [{ item_id: 3, quantity: 1, unit_price: 10 }] }, key ? { idempotencyKey: key } : undefined),
    { status: 200, body: delivery },
  ],
];

const keysSent = (fake: ReturnType<typeof scriptedFetch>) => fake.seen.map((request) => request.headers.get('idempotency-key'));

describe('Idempotency-Key', () => {
  it('is declared by exactly the create, issue and upload operations, which the keyed writes here cover', () => {
    const keyed = Object.values(operationTable).filter((entry) => entry.headerParams.some((header) => header.name === 'Idempotency-Key'));
    expect(keyed.map((entry) => entry.operationId).sort()).toEqual(keyedWrites.map(([id]) => id).sort());
  });

  it.each(keyedWrites)('%s retried after a 503 and after a network failure sends the same fresh key every attempt', async (_id, write, success) => {
    const fake = scriptedFetch(unavailable, networkFailure, success);
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    const result = await write(api);
    expect(result).toMatchObject({ ok: true, attempts: 3 });
    const keys = keysSent(fake);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys).toEqual([keys[0], keys[0], keys[0]]);
    expect(result.idempotencyKey).toBe(keys[0]);
    // The request id ties the attempts together in the logs, as for safe operations.
    expect(new Set(fake.seen.map((request) => request.headers.get('x-request-id'))).size).toBe(1);
  });

  it('two calls send two different keys, each made once by the injected generator', async () => {
    const fake = scriptedFetch(unavailable, { status: 201, body: { delivery } }, { status: 201, body: { delivery } });
    let made = 0;
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep }, idempotencyKey: () => `key-${++made}` });
    await api.createDelivery({ contact_id: 2 });
    await api.createDelivery({ contact_id: 2 });
    expect(keysSent(fake)).toEqual(['key-1', 'key-1', 'key-2']);
    expect(made).toBe(2);
  });

  it.each(keyedWrites)("%s sends the caller's own key, on every attempt", async (_id, write, success) => {
    const fake = scriptedFetch(networkFailure, success);
    let made = 0;
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep }, idempotencyKey: () => `made-${++made}` });
    const result = await write(api, 'order-4711:create');
    expect(keysSent(fake)).toEqual(['order-4711:create', 'order-4711:create']);
    expect(result.idempotencyKey).toBe('order-4711:create');
    expect(made).toBe(0);
  });

  it('retries 409 idempotency_key_in_use with the same key, and reports the replay that follows', async () => {
    const fake = scriptedFetch(
      { status: 409, body: errorBody('idempotency_key_in_use', 'A request with this Idempotency-Key is still running.') },
      { status: 201, body: { invoice }, headers: { 'Idempotent-Replayed': 'true', Location: '/api/v1/invoices/5' } },
    );
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep, random: () => 0.5 } });
    const result = await api.createInvoice({ client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-12-31' });
    expect(result).toMatchObject({ ok: true, status: 201, attempts: 2, replayed: true });
    expect(keysSent(fake)).toEqual([result.idempotencyKey, result.idempotencyKey]);
    // No Retry-After on a 409: the backoff decides.
    expect(delays).toEqual([100]);
  });

  it('does not retry 422 idempotency_key_reused: the key belongs to another request, repeating cannot help', async () => {
    const fake = scriptedFetch({ status: 422, body: errorBody('idempotency_key_reused') }, { status: 201, body: { invoice } });
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    const result = await api.createInvoice({ client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-12-31' }, { idempotencyKey: 'used-before' });
    expect(result).toMatchObject({ ok: false, status: 422, attempts: 1, error: { error: 'idempotency_key_reused' } });
    expect(fake.remaining()).toBe(1);
  });

  it('does not retry any other 409 of a keyed write (an invoice number already taken)', async () => {
    const fake = scriptedFetch({ status: 409, body: errorBody('conflict') }, { status: 201, body: { invoice } });
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep } });
    const result = await api.createInvoice({ client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-12-31', invoice_number: 'INV-000001' });
    expect(result).toMatchObject({ ok: false, status: 409, attempts: 1 });
  });

  it('sends no key where the operation declares none, and does not retry a 409 idempotency_key_in_use there', async () => {
    const fake = scriptedFetch({ status: 200, body: { invoice } }, { status: 409, body: errorBody('idempotency_key_in_use') });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep: async () => {} } });
    const read = await api.getInvoice(5);
    const update = await api.updateInvoice(5, { description: 'x' });
    expect(keysSent(fake)).toEqual([null, null]);
    expect([read.idempotencyKey, update.idempotencyKey]).toEqual([undefined, undefined]);
    expect(update).toMatchObject({ ok: false, attempts: 1 });
  });

  it('retry: false sends the key but makes one attempt', async () => {
    const fake = scriptedFetch(unavailable);
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: false });
    const result = await api.createDelivery({ contact_id: 2 });
    expect(result).toMatchObject({ ok: false, status: 503, attempts: 1 });
    expect(keysSent(fake)[0]).toBe(result.idempotencyKey);
  });
});

describe('If-Match and ETag', () => {
  it('surfaces the ETag of a read and sends it back as If-Match on the update, whose ETag surfaces too', async () => {
    const fake = scriptedFetch(
      { status: 200, body: { invoice }, headers: { ETag: '"5-1"' } },
      { status: 200, body: { invoice: { ...invoice, description: 'x' } }, headers: { ETag: '"5-2"' } },
    );
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const read = await api.getInvoice(5);
    expect(read.etag).toBe('"5-1"');
    const updated = await api.updateInvoice(5, { description: 'x' }, { ifMatch: read.etag });
    expect(fake.seen[1]?.headers.get('if-match')).toBe('"5-1"');
    expect(updated.etag).toBe('"5-2"');
  });

  it('updateDelivery sends If-Match too; without ifMatch no If-Match is sent', async () => {
    const fake = scriptedFetch({ status: 200, body: { delivery } }, { status: 200, body: { delivery } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    await api.updateDelivery(7, { contact_id: 2 }, { ifMatch: '*' });
    await api.updateDelivery(7, { contact_id: 2 });
    expect(fake.seen.map((request) => request.headers.get('if-match'))).toEqual(['*', null]);
  });

  it('returns 412 precondition_failed as a typed error, not retried, with no ETag', async () => {
    const fake = scriptedFetch({ status: 412, body: errorBody('precondition_failed', 'Invoice 5 has changed since "5-1".') });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const result = await api.updateInvoice(5, { status: 'sent' }, { ifMatch: '"5-1"' });
    expect(result).toMatchObject({ ok: false, status: 412, attempts: 1, etag: undefined, error: { error: 'precondition_failed' } });
  });

  it('reports replayed false and etag undefined on an answer without those headers', async () => {
    const fake = scriptedFetch({ status: 201, body: { invoice } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    expect(await api.createInvoice({ client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-12-31' })).toMatchObject({ replayed: false, etag: undefined });
  });
});

describe('network failures', () => {
  it('retries a safe operation after a network failure', async () => {
    const fake = scriptedFetch(networkFailure, { status: 200, body: { users: [] } });
    const { delays, sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep, random: () => 0 } });
    expect(await api.listUsers()).toMatchObject({ ok: true, attempts: 2 });
    expect(delays).toEqual([0]);
  });

  it('gives up after maxAttempts with a NetworkError naming the call, its request id and the key to resend with', async () => {
    const fake = scriptedFetch(networkFailure, networkFailure);
    const { sleep } = recordingSleep();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep, maxAttempts: 2 }, idempotencyKey: () => 'k-1' });
    const failure = await api
      .issueDelivery({ delivery_id: 7, contact_id: 2, items: [{ item_id: 3, quantity: 1, unit_price: 10 }] }, { requestId: 'r-1' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    const error = failure as NetworkError;
    expect(error.call).toEqual({ operationId: 'issueDelivery', requestId: 'r-1', idempotencyKey: 'k-1', attempts: 2 });
    expect(error).toMatchObject({ method: 'POST', url: 'http://api.test/2.0/delivery/issue' });
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      "issueDelivery: no answer from POST http://api.test/2.0/delivery/issue after 2 attempts (fetch failed); request id r-1; resend with idempotencyKey 'k-1' to learn the outcome",
    );
  });

  it('does not retry an update after a network failure: without a key a second attempt could apply it twice', async () => {
    const fake = scriptedFetch(networkFailure, { status: 200, body: { invoice } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep: async () => {} } });
    const failure = await api.updateInvoice(5, { description: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).call).toMatchObject({ operationId: 'updateInvoice', idempotencyKey: undefined, attempts: 1 });
    expect(fake.remaining()).toBe(1);
  });

  it("does not retry or rename the caller's abort, even when the fetch reports it as a TypeError", async () => {
    const controller = new AbortController();
    controller.abort();
    const seen: string[] = [];
    const fetch = async (request: Request) => {
      seen.push(request.url);
      throw new TypeError('aborted by the caller');
    };
    const api = createApiClient({ baseUrl, token: 't', fetch, retry: { sleep: async () => {} } });
    const failure = await api.listUsers({ signal: controller.signal }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).not.toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(1);
  });

  it('does not take a TypeError thrown before any request (a failing getToken) for a network failure', async () => {
    const fake = scriptedFetch({ status: 200, body: { users: [] } });
    const api = createApiClient({
      baseUrl,
      getToken: () => {
        throw new TypeError('token store unavailable');
      },
      fetch: fake.fetch,
      retry: { sleep: async () => {} },
    });
    await expect(api.listUsers()).rejects.toThrow(/token store unavailable/);
    expect(fake.seen).toHaveLength(0);
  });

  it('api.raw throws a NetworkError without a call when fetch fails', async () => {
    const fake = scriptedFetch(networkFailure);
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    const failure = await api.raw.GET('/api/v1/users').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).call).toBeUndefined();
    expect((failure as NetworkError).message).toBe('no answer from GET http://api.test/api/v1/users (fetch failed)');
  });
});
