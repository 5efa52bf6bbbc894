// The client's 401 refresh and its response checks against the real service: an expired token is
// refused with a real 401, the hook mints a fresh one, and the call is replayed once with the same
// request id (and the same Idempotency-Key for a create, which then exists once); an update is not
// replayed. Every answer here is checked by validateResponses as well.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiClient, expectOk, type UnauthorizedCall } from '@invoice-api/client';
import { clientFor, targetFetch, tokenFor } from '../src/clients.js';
import { companyClients, statefulTargets } from '../src/stateful.js';
import type { Target } from '../src/targets.js';

/** A client whose token has expired, whose hook mints a fresh one and records what it was told. */
async function expiredClient(target: Target) {
  const expired = await tokenFor(target, { ttlSeconds: -120 });
  const asked: UnauthorizedCall[] = [];
  const sent: Array<{ authorization: string | null; requestId: string | null; key: string | null }> = [];
  const realFetch = targetFetch(target);
  const fetch = (request: Request) => {
    sent.push({
      authorization: request.headers.get('Authorization'),
      requestId: request.headers.get('X-Request-Id'),
      key: request.headers.get('Idempotency-Key'),
    });
    return realFetch(request);
  };
  const api = createApiClient({
    baseUrl: target.baseUrl,
    fetch,
    retry: false,
    validateResponses: true,
    ...(expired ? { token: expired } : {}),
    onUnauthorized: async (call) => {
      asked.push(call);
      return tokenFor(target);
    },
  });
  return { api, asked, sent, expired };
}

describe.each(statefulTargets())('$name: the client refreshes an expired token and checks answers', (target) => {
  it('replays a search once with the fresh token, after a real 401 that says the token expired', async () => {
    const { api, asked, sent, expired } = await expiredClient(target);
    const result = await api.searchInvoices({ limit: 3 });
    expect(result).toMatchObject({ ok: true, status: 200, attempts: 2 });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.operationId).toBe('searchInvoices');
    expect(asked[0]?.response.headers.get('WWW-Authenticate')).toMatch(/invalid_token/);
    expect(sent[0]?.authorization).toBe(`Bearer ${expired}`);
    expect(sent[1]?.authorization).not.toBe(sent[0]?.authorization);
    expect(sent[1]?.requestId).toBe(sent[0]?.requestId);
  });

  it('replays a create with the same Idempotency-Key, and the invoice exists once', async () => {
    const [client] = await companyClients(target);
    const { api, sent } = await expiredClient(target);
    const description = `client-runtime ${randomUUID()}`;
    const created = await api.createInvoice({ client_id: client?.id ?? 0, amount: 3.5, currency: 'CHF', due_date: '2027-03-31', description });
    expect(created).toMatchObject({ ok: true, status: 201, attempts: 2 });
    expect(sent.map((request) => request.key)).toEqual([created.idempotencyKey, created.idempotencyKey]);
    const reader = await clientFor(target);
    const found = await expectOk(reader.searchInvoices({ criteria: [{ field: 'description', operator: '=', value: description }] }));
    expect(found.data).toHaveLength(1);
  });

  it('does not replay an update: the 401 is returned and the hook is not asked', async () => {
    const owner = await clientFor(target);
    const page = await expectOk(owner.searchInvoices({ limit: 1 }));
    const { api, asked } = await expiredClient(target);
    const result = await api.updateInvoice(page.data[0]?.id ?? 1, { description: 'never written' });
    expect(result).toMatchObject({ ok: false, status: 401, attempts: 1 });
    expect(asked).toEqual([]);
  });
});
