// Deliveries against the real service (directly and through Prism's validation proxy): the whole
// life of a delivery, and each documented error of the delivery operations.
import { describe, expect, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import { clientFor, rawRequest, tokenFor } from '../src/clients.js';
import { companyClients, errorOf, statefulTargets } from '../src/stateful.js';

describe.each(statefulTargets())('$name: deliveries', (target) => {
  it('lives from draft to issued, and is immutable once issued', async () => {
    const api = await clientFor(target);
    const [first, second] = await companyClients(target);
    if (!first || !second) throw new Error('unreachable');

    const created = await api.createDelivery({ contact_id: first.id, items: [{ item_id: 1, quantity: 2, unit_price: 10.005 }] });
    expect(created.status).toBe(201);
    const draft = await expectOk(created);
    expect(created.response.headers.get('Location')).toBe(`/2.0/delivery/${draft.delivery.id}`);
    expect(draft.delivery).toMatchObject({ status: 'draft', contact_id: first.id, delivery_date: null, total_amount: 20.01 });
    expect(draft.delivery.delivery_nr).toMatch(/^LS-\d{6,}$/);
    expect(draft.delivery.items).toMatchObject([{ item_id: 1, quantity: 2, unit_price: 10.005, total: 20.01 }]);
    const id = draft.delivery.id;

    expect(await expectOk(api.getDelivery(id))).toEqual(draft);

    const updated = await expectOk(api.updateDelivery(id, { delivery_date: '2026-12-01' }));
    expect(updated.delivery).toMatchObject({ id, status: 'draft', delivery_date: '2026-12-01', delivery_nr: draft.delivery.delivery_nr });

    // Issue replaces contact and items; the date defaults to the draft's.
    const issuedResult = await api.issueDelivery({
      delivery_id: id,
      contact_id: second.id,
      items: [
        { item_id: 7, quantity: 1.5, unit_price: 12.3456 },
        { item_id: 8, quantity: 3, unit_price: 19.99 },
      ],
    });
    expect(issuedResult.status).toBe(200);
    const issued = await expectOk(issuedResult);
    expect(issued).toMatchObject({ id, status: 'issued', contact_id: second.id, delivery_date: '2026-12-01', total_amount: 78.49 });
    expect(issued.items.map((item) => item.total)).toEqual([18.52, 59.97]);

    const lateUpdate = await api.updateDelivery(id, { delivery_date: '2026-12-24' });
    expect(lateUpdate.status).toBe(409);
    expect(errorOf(lateUpdate).error).toBe('already_issued');

    const secondIssue = await api.issueDelivery({ delivery_id: id, contact_id: first.id, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] });
    expect(secondIssue.status).toBe(409);
    expect(errorOf(secondIssue)).toMatchObject({ error: 'already_issued', message: expect.stringContaining(String(id)) });

    const after = await expectOk(api.getDelivery(id));
    expect(after.delivery).toEqual(issued);

    const { deliveries } = await expectOk(api.listDeliveries({ limit: 1000 }));
    expect(deliveries.find((delivery) => delivery.id === id)).toEqual(issued);
    const ids = deliveries.map((delivery) => delivery.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('when several issue calls race on one draft, exactly one succeeds and the others are 409 already_issued', async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const draft = await expectOk(api.createDelivery({ contact_id: client?.id ?? 0 }));
    const issue = (itemId: number) =>
      api.issueDelivery({ delivery_id: draft.delivery.id, contact_id: draft.delivery.contact_id, items: [{ item_id: itemId, quantity: 1, unit_price: 1 }] });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(issue));
    const winners = answers.filter((answer) => answer.ok);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok).map((answer) => [answer.status, errorOf(answer).error])).toEqual(
      Array.from({ length: 4 }, () => [409, 'already_issued']),
    );
    // The stored delivery is the winner's, whichever it was.
    const [winner] = winners;
    expect(await expectOk(api.getDelivery(draft.delivery.id))).toEqual({ delivery: winner?.data });
  });

  it('issue: a missing required parameter is 400 invalid_request naming it', async () => {
    const token = await tokenFor(target);
    const result = await rawRequest(target, 'POST', '/2.0/delivery/issue', {
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ contact_id: 1, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] }),
    });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('delivery_id'), details: { field: 'delivery_id' } });
  });

  it('issue: no items, or a zero quantity, is 400 naming items', async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const draft = await expectOk(api.createDelivery({ contact_id: client?.id ?? 0 }));
    const empty = await api.issueDelivery({ delivery_id: draft.delivery.id, contact_id: draft.delivery.contact_id, items: [] });
    expect(empty.status).toBe(400);
    expect(errorOf(empty)).toMatchObject({ error: 'invalid_request', details: { field: 'items' } });
    const zero = await api.issueDelivery({
      delivery_id: draft.delivery.id,
      contact_id: draft.delivery.contact_id,
      items: [{ item_id: 1, quantity: 0, unit_price: 1 }],
    });
    expect(zero.status).toBe(400);
    expect(errorOf(zero).details?.field).toMatch(/^items/);
    // Nothing was issued by the refused calls.
    expect((await expectOk(api.getDelivery(draft.delivery.id))).delivery.status).toBe('draft');
  });

  it('issue: an unknown delivery is 404 not_found', async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const result = await api.issueDelivery({ delivery_id: 2_000_000_000, contact_id: client?.id ?? 0, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] });
    expect(result.status).toBe(404);
    expect(errorOf(result).error).toBe('not_found');
  });

  it("another account's delivery is 404 for every delivery operation, and stays untouched", async () => {
    const owner = await clientFor(target, { accountId: 1 });
    const stranger = await clientFor(target, { accountId: 2 });
    const [client] = await companyClients(target, 1);
    const [strangersClient] = await companyClients(target, 2);
    const draft = await expectOk(owner.createDelivery({ contact_id: client?.id ?? 0 }));
    const id = draft.delivery.id;
    const answers = [
      await stranger.getDelivery(id),
      await stranger.updateDelivery(id, { delivery_date: '2026-12-02' }),
      await stranger.issueDelivery({ delivery_id: id, contact_id: strangersClient?.id ?? 0, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] }),
    ];
    expect(answers.map((answer) => [answer.status, errorOf(answer).error])).toEqual([
      [404, 'not_found'],
      [404, 'not_found'],
      [404, 'not_found'],
    ]);
    const { deliveries } = await expectOk(stranger.listDeliveries({ limit: 1000 }));
    expect(deliveries.some((delivery) => delivery.id === id)).toBe(false);
    expect(await expectOk(owner.getDelivery(id))).toEqual(draft);
  });

  it("create: a contact that is not one of the account's company clients is 400 naming contact_id", async () => {
    const api = await clientFor(target, { accountId: 1 });
    const [otherAccountsClient] = await companyClients(target, 2);
    const result = await api.createDelivery({ contact_id: otherAccountsClient?.id ?? 0 });
    expect(result.status).toBe(400);
    expect(errorOf(result)).toMatchObject({ error: 'invalid_request', details: { field: 'contact_id' } });
  });

  it('a token without deliveries:write is 403 forbidden with insufficient_scope, and creates nothing', async () => {
    // Account 2: no scenario creates deliveries there, so its list can only change through this call.
    const reader = await clientFor(target, { scopes: ['deliveries:read', 'clients:read'], accountId: 2 });
    const before = await expectOk(reader.listDeliveries({ limit: 1000 }));
    const [client] = await companyClients(target, 2);
    const result = await reader.createDelivery({ contact_id: client?.id ?? 0 });
    expect(result.status).toBe(403);
    expect(errorOf(result).error).toBe('forbidden');
    expect(result.response.headers.get('WWW-Authenticate')).toContain('insufficient_scope');
    expect(await expectOk(reader.listDeliveries({ limit: 1000 }))).toEqual(before);
  });

  it('an unknown delivery id is 404, and a listDeliveries limit over 1000 is 400 naming limit', async () => {
    const api = await clientFor(target);
    const missing = await api.getDelivery(2_000_000_000);
    expect([missing.status, errorOf(missing).error]).toEqual([404, 'not_found']);
    const tooMany = await api.listDeliveries({ limit: 1001 });
    expect(tooMany.status).toBe(400);
    expect(errorOf(tooMany)).toMatchObject({ error: 'invalid_request', details: { field: 'limit' } });
  });
});
