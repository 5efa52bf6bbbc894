// The client's idempotency keys and If-Match against the real service: a keyed write whose answer is
// lost on the way back is retried by the client with the same key and answered from the stored
// answer, with nothing written twice; an ETag read through the client guards an update.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiClient, expectOk, type ApiClient } from '@invoice-api/client';
import { clientFor, targetFetch, tokenFor } from '../src/clients.js';
import { companyClients, errorOf, statefulTargets } from '../src/stateful.js';
import type { Target } from '../src/targets.js';
import { invoiceOrder, markPaid } from '../../client/examples/safe-writes.js';

/**
 * A client whose first request reaches the service and is answered, but whose answer is then lost:
 * fetch rejects with a TypeError, as it does when a connection drops. What the service answered that
 * first time is kept for the test to compare with.
 */
async function clientLosingFirstAnswer(target: Target) {
  const realFetch = targetFetch(target);
  const keys: Array<string | null> = [];
  const lost: Array<{ status: number; body: unknown; location: string | null }> = [];
  const fetch = async (request: Request): Promise<Response> => {
    keys.push(request.headers.get('Idempotency-Key'));
    const response = await realFetch(request);
    if (lost.length > 0) return response;
    lost.push({ status: response.status, body: await response.json(), location: response.headers.get('Location') });
    throw new TypeError('fetch failed: the connection dropped before the answer arrived');
  };
  const token = await tokenFor(target);
  // The retry waits nothing: whether the answer comes back as a replay must not depend on timing.
  const api: ApiClient = createApiClient({ baseUrl: target.baseUrl, fetch, retry: { sleep: async () => {} }, ...(token ? { token } : {}) });
  return { api, keys, lost };
}

describe.each(statefulTargets())('$name: the client retries keyed writes safely', (target) => {
  it('a create whose first answer is lost is retried with the same key and answered as a replay, without a duplicate', async () => {
    const [client] = await companyClients(target);
    const description = `client-keys ${randomUUID()}`;
    const { api, keys, lost } = await clientLosingFirstAnswer(target);

    const created = await api.createInvoice({ client_id: client?.id ?? 0, amount: 12.5, currency: 'CHF', due_date: '2027-02-28', description });

    expect(created).toMatchObject({ ok: true, status: 201, attempts: 2, replayed: true });
    expect(created.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(keys).toEqual([created.idempotencyKey, created.idempotencyKey]);
    // The replay is the answer that was lost: same invoice, same Location.
    expect(lost).toEqual([{ status: 201, body: created.data, location: created.response.headers.get('Location') }]);
    const reader = await clientFor(target);
    const found = await expectOk(reader.searchInvoices({ criteria: [{ field: 'description', operator: '=', value: description }] }));
    expect(found.data.map((invoice) => invoice.id)).toEqual([created.ok ? created.data.invoice.id : -1]);
  });

  it('an issue whose first answer is lost is retried and replayed, not refused as already issued', async () => {
    const [client] = await companyClients(target);
    const owner = await clientFor(target);
    const draft = await expectOk(owner.createDelivery({ contact_id: client?.id ?? 0 }));
    const { api, keys, lost } = await clientLosingFirstAnswer(target);

    const issued = await api.issueDelivery({
      delivery_id: draft.delivery.id,
      contact_id: draft.delivery.contact_id,
      items: [{ item_id: 1, quantity: 2, unit_price: 3 }],
    });

    expect(issued).toMatchObject({ ok: true, status: 200, attempts: 2, replayed: true, data: { id: draft.delivery.id, status: 'issued', total_amount: 6 } });
    expect(keys).toEqual([issued.idempotencyKey, issued.idempotencyKey]);
    expect(lost).toEqual([{ status: 200, body: issued.data, location: null }]);
    // Issued once: the delivery holds the one line of that issue.
    const stored = await expectOk(owner.getDelivery(draft.delivery.id));
    expect(stored.delivery).toMatchObject({ status: 'issued', items: [{ item_id: 1, quantity: 2 }] });
  });

  it('an update sent with the ETag of a read applies once; the same ETag again is 412 precondition_failed', async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const { invoice } = await expectOk(api.createInvoice({ client_id: client?.id ?? 0, amount: 3, currency: 'CHF', due_date: '2027-03-31' }));
    const read = await api.getInvoice(invoice.id);
    expect(read.etag).toMatch(/^"\d+-\d+"$/);

    const first = await api.updateInvoice(invoice.id, { description: 'first writer' }, { ifMatch: read.etag });
    expect(first).toMatchObject({ ok: true, status: 200 });
    expect(first.etag).not.toBe(read.etag);
    const second = await api.updateInvoice(invoice.id, { description: 'second writer' }, { ifMatch: read.etag });
    expect(second.status).toBe(412);
    expect(errorOf(second)).toMatchObject({ error: 'precondition_failed' });
    expect((await expectOk(api.getInvoice(invoice.id))).invoice.description).toBe('first writer');
  });

  it("the client README's safe-writes example works as documented: one invoice per order, paid only at the version read", async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const orderId = randomUUID();
    const invoice = { client_id: client?.id ?? 0, amount: 40, currency: 'CHF' as const, due_date: '2027-04-30', status: 'sent' as const };
    const first = await invoiceOrder(api, orderId, invoice);
    const again = await invoiceOrder(api, orderId, invoice);
    expect([first.firstTime, again.firstTime]).toEqual([true, false]);
    expect(again.invoice).toEqual(first.invoice);
    expect(await markPaid(api, first.invoice.id)).toBe(true);
    expect((await expectOk(api.getInvoice(first.invoice.id))).invoice.status).toBe('paid');
  });
});
