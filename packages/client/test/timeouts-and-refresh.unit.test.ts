// Timeouts, the caller's abort and the 401 refresh, through the injected fetch: which attempts time
// out, which are repeated after a timeout or a refresh, with which headers, and what a call that ran
// out of time throws.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkError, RequestTimeoutError, createApiClient, defaultTimeoutMs } from '../src/index.js';
import { errorBody, hang, scriptedFetch } from './fake-fetch.js';
import { sampleInvoice } from './sample-answers.js';

const baseUrl = 'http://api.test';
const users = { users: [] };
const invoice = { ...sampleInvoice, description: '' };
const createBody = { client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-12-31' };
const unauthorized = {
  status: 401,
  body: errorBody('unauthorized', 'The access token expired.'),
  headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
};
const noWait = { sleep: async () => {} };

/** A promise and the functions that settle it, to hold an answer back until the test lets it go. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('timeouts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives up an attempt that gets no answer in time, retries a safe call, and throws RequestTimeoutError naming the operation and the time', async () => {
    const fake = scriptedFetch(hang, hang);
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: 20, retry: { ...noWait, maxAttempts: 2 } });
    const failure = await api.listUsers().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestTimeoutError);
    expect(failure).toBeInstanceOf(NetworkError);
    const timeout = failure as RequestTimeoutError;
    expect(timeout.timeoutMs).toBe(20);
    expect(timeout.call).toMatchObject({ operationId: 'listUsers', attempts: 2, idempotencyKey: undefined });
    expect(timeout.message).toMatch(/^listUsers: timed out after 20 ms \(no answer from GET http:\/\/api\.test\/api\/v1\/users; 2 attempts\); request id /);
    // Both attempts were the same call: one request id.
    expect(new Set(fake.seen.map((request) => request.headers.get('x-request-id'))).size).toBe(1);
  });

  it('returns the answer of the attempt after a timeout', async () => {
    const fake = scriptedFetch(hang, { status: 200, body: users });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: 20, retry: noWait });
    expect(await api.listUsers()).toMatchObject({ ok: true, attempts: 2 });
  });

  it('repeats a keyed write after a timeout with the same Idempotency-Key', async () => {
    const fake = scriptedFetch(hang, { status: 201, body: { invoice }, headers: { 'Idempotent-Replayed': 'true' } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: 20, retry: noWait });
    const created = await api.createInvoice(createBody);
    expect(created).toMatchObject({ ok: true, attempts: 2, replayed: true });
    expect(fake.seen.map((request) => request.headers.get('idempotency-key'))).toEqual([created.idempotencyKey, created.idempotencyKey]);
  });

  it('never repeats an unkeyed write after a timeout: the update may have been applied', async () => {
    const fake = scriptedFetch(hang, { status: 200, body: { invoice } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: 20, retry: noWait });
    const failure = await api.updateInvoice(5, { description: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestTimeoutError);
    expect((failure as RequestTimeoutError).call?.attempts).toBe(1);
    expect(fake.remaining()).toBe(1);
  });

  it('a per-call timeout overrides the client default, and false turns it off', async () => {
    const fake = scriptedFetch(hang, { status: 200, body: users });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: false, retry: false });
    await expect(api.listUsers({ timeout: 15 })).rejects.toThrow(/listUsers: timed out after 15 ms/);
    const quick = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: 15, retry: false });
    expect(await quick.listUsers({ timeout: false })).toMatchObject({ ok: true });
  });

  it('has a default of 30 seconds per attempt', async () => {
    vi.useFakeTimers();
    const fake = scriptedFetch(hang);
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: false });
    let settled: unknown;
    const call = api.listUsers().catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(defaultTimeoutMs - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(settled).toBeInstanceOf(RequestTimeoutError);
    expect(defaultTimeoutMs).toBe(30_000);
  });

  it('times out even when the fetch or getToken ignores the signal', async () => {
    const deaf = async () => new Promise<Response>(() => {});
    const api = createApiClient({ baseUrl, token: 't', fetch: deaf, timeout: 20, retry: false });
    await expect(api.getInvoice(5)).rejects.toThrow(/^getInvoice: timed out after 20 ms \(no answer from GET \/api\/v1\/invoices\/\{invoice_id\}; 1 attempt\)/);
    const stuckToken = createApiClient({ baseUrl, getToken: () => new Promise<string>(() => {}), fetch: scriptedFetch().fetch, timeout: 20, retry: false });
    await expect(stuckToken.listUsers()).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("passes the caller's abort through as is: not a timeout, not retried", async () => {
    const fake = scriptedFetch(hang, { status: 200, body: users });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, timeout: 10_000, retry: noWait });
    const controller = new AbortController();
    const call = api.listUsers({ signal: controller.signal }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(fake.seen).toHaveLength(1));
    const reason = new Error('the user left the page');
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(fake.remaining()).toBe(1);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    const fake = scriptedFetch({ status: 503, body: errorBody('service_unavailable'), headers: { 'Retry-After': '5' } });
    const sleeping = deferred<void>();
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: { sleep: () => sleeping.promise } });
    const controller = new AbortController();
    const call = api.listUsers({ signal: controller.signal }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(fake.seen).toHaveLength(1));
    controller.abort();
    const failure = await call;
    expect(failure).toBeInstanceOf(DOMException);
    expect((failure as DOMException).name).toBe('AbortError');
  });
});

describe('onUnauthorized', () => {
  it('replays a safe call once with the fresh token, with the same request id, and later calls send it too', async () => {
    const fake = scriptedFetch(unauthorized, { status: 200, body: users }, { status: 200, body: users });
    const asked: string[] = [];
    const api = createApiClient({
      baseUrl,
      token: 'expired',
      fetch: fake.fetch,
      onUnauthorized: async ({ operationId, response }) => {
        asked.push(`${operationId} ${response.status}`);
        return 'fresh';
      },
    });
    const result = await api.listUsers();
    await api.listUsers();
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(asked).toEqual(['listUsers 401']);
    expect(fake.seen.map((request) => request.headers.get('authorization'))).toEqual(['Bearer expired', 'Bearer fresh', 'Bearer fresh']);
    expect(fake.seen[0]?.headers.get('x-request-id')).toBe(fake.seen[1]?.headers.get('x-request-id'));
  });

  it("replaces the caller's own Authorization header on the replay, whatever its spelling", async () => {
    const fake = scriptedFetch(unauthorized, { status: 200, body: users });
    const api = createApiClient({ baseUrl, fetch: fake.fetch, onUnauthorized: () => 'fresh' });
    await api.listUsers({ headers: { authorization: 'Bearer mine' } });
    expect(fake.seen.map((request) => request.headers.get('authorization'))).toEqual(['Bearer mine', 'Bearer fresh']);
  });

  it('replays only once: a second 401 is returned as is', async () => {
    const fake = scriptedFetch(unauthorized, unauthorized);
    let asked = 0;
    const api = createApiClient({ baseUrl, token: 'expired', fetch: fake.fetch, onUnauthorized: () => `fresh-${++asked}` });
    const result = await api.listUsers();
    expect(result).toMatchObject({ ok: false, status: 401, attempts: 2, error: { error: 'unauthorized' } });
    expect(asked).toBe(1);
  });

  it('returns the 401 when the hook has no token', async () => {
    const fake = scriptedFetch(unauthorized);
    const api = createApiClient({ baseUrl, token: 'expired', fetch: fake.fetch, onUnauthorized: () => undefined });
    expect(await api.listUsers()).toMatchObject({ ok: false, status: 401, attempts: 1 });
  });

  it('replays a keyed write with the same Idempotency-Key and request id', async () => {
    const fake = scriptedFetch(unauthorized, { status: 201, body: { invoice } });
    const api = createApiClient({ baseUrl, token: 'expired', fetch: fake.fetch, onUnauthorized: () => 'fresh' });
    const created = await api.createInvoice(createBody);
    expect(created).toMatchObject({ ok: true, status: 201, attempts: 2 });
    expect(fake.seen.map((request) => request.headers.get('idempotency-key'))).toEqual([created.idempotencyKey, created.idempotencyKey]);
    expect(fake.seen[1]?.headers.get('authorization')).toBe('Bearer fresh');
  });

  it('never replays an unkeyed write, and does not ask the hook for one', async () => {
    const fake = scriptedFetch(unauthorized, { status: 200, body: { invoice } });
    let asked = 0;
    const api = createApiClient({ baseUrl, token: 'expired', fetch: fake.fetch, onUnauthorized: () => `fresh-${++asked}` });
    expect(await api.updateInvoice(5, { description: 'x' })).toMatchObject({ ok: false, status: 401, attempts: 1 });
    expect(asked).toBe(0);
    expect(fake.remaining()).toBe(1);
  });

  it('shares one refresh between calls refused together', async () => {
    const refreshed = deferred<string>();
    let asked = 0;
    const seen: string[] = [];
    const fetch = async (request: Request) => {
      const authorization = request.headers.get('authorization') ?? '';
      seen.push(authorization);
      const body = authorization === 'Bearer fresh' ? users : errorBody('unauthorized');
      return new Response(JSON.stringify(body), { status: authorization === 'Bearer fresh' ? 200 : 401, headers: { 'Content-Type': 'application/json' } });
    };
    const api = createApiClient({
      baseUrl,
      token: 'expired',
      fetch,
      onUnauthorized: () => {
        asked += 1;
        return refreshed.promise;
      },
    });
    const calls = Promise.all([api.listUsers(), api.listUsers(), api.listCompanyClients()]);
    await vi.waitFor(() => expect(asked).toBe(1));
    refreshed.resolve('fresh');
    const results = await calls;
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(asked).toBe(1);
    expect(seen.filter((authorization) => authorization === 'Bearer fresh')).toHaveLength(3);
  });

  it('a 401 to a request sent before a refresh finished takes that refresh, without asking again', async () => {
    const held: Array<(response: Response) => void> = [];
    const fetch = async (request: Request) => {
      if (request.headers.get('authorization') === 'Bearer fresh')
        return new Response(JSON.stringify(users), { status: 200, headers: { 'Content-Type': 'application/json' } });
      return new Promise<Response>((resolve) => held.push(resolve));
    };
    const refusal = () => new Response(JSON.stringify(errorBody('unauthorized')), { status: 401, headers: { 'Content-Type': 'application/json' } });
    let asked = 0;
    const api = createApiClient({
      baseUrl,
      token: 'expired',
      fetch,
      onUnauthorized: () => {
        asked += 1;
        return 'fresh';
      },
    });
    const first = api.listUsers();
    const second = api.listUsers();
    await vi.waitFor(() => expect(held).toHaveLength(2));
    held[0]?.(refusal());
    expect(await first).toMatchObject({ ok: true, attempts: 2 });
    held[1]?.(refusal());
    expect(await second).toMatchObject({ ok: true, attempts: 2 });
    expect(asked).toBe(1);
  });

  it('with getToken, getToken stays the source of later tokens; the replay sends the hook token', async () => {
    const fake = scriptedFetch(unauthorized, { status: 200, body: users }, { status: 200, body: users });
    let current = 'old';
    const api = createApiClient({
      baseUrl,
      getToken: () => current,
      fetch: fake.fetch,
      onUnauthorized: () => {
        current = 'renewed';
        return current;
      },
    });
    await api.listUsers();
    await api.listUsers();
    expect(fake.seen.map((request) => request.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer renewed', 'Bearer renewed']);
  });
});
