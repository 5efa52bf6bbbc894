// The client's paging helper against the real service: every item of a search by cursor, and every
// delivery by offset, each exactly once, in order, with one request per page and none after the last.
import { describe, expect, it } from 'vitest';
import { createApiClient, expectOk, items, pages } from '@invoice-api/client';
import type { Invoice } from '@invoice-api/contract';
import { targetFetch, tokenFor } from '../src/clients.js';
import { companyClients, statefulTargets } from '../src/stateful.js';
import type { Target } from '../src/targets.js';

/** A client that counts the requests it sends. */
async function countingClient(target: Target) {
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
  return { api, sent };
}

describe.each(statefulTargets())('$name: paging with the client', (target) => {
  it('walks a search by cursor: the same invoices as one big page, one request per page, none after the last', async () => {
    const { api, sent } = await countingClient(target);
    // The second client: no scenario writes invoices for it, so nothing shifts under the walk.
    const [, client] = await companyClients(target);
    const search = {
      criteria: [{ field: 'client_id' as const, operator: '=' as const, value: client?.id ?? 0 }],
      order_by: 'amount' as const,
      order_direction: 'desc' as const,
    };
    const everything = await expectOk(api.searchInvoices({ ...search, limit: 1000 }));
    expect(everything.pagination.total).toBeGreaterThan(14);
    sent.length = 0;
    const limit = 7;
    const seen: Invoice[] = [];
    for await (const invoice of items(api, 'searchInvoices', { ...search, limit })) seen.push(invoice);
    expect(seen).toEqual(everything.data);
    expect(sent).toHaveLength(Math.ceil(everything.pagination.total / limit));
    const bodies = await Promise.all(sent.map(async (request) => JSON.parse(await request.text()) as { cursor?: string }));
    expect(bodies[0]?.cursor).toBeUndefined();
    expect(bodies.slice(1).every((body) => typeof body.cursor === 'string')).toBe(true);
  });

  it('walks the deliveries by offset: every delivery once, in id order', async () => {
    const { api } = await countingClient(target);
    const all = (await expectOk(api.listDeliveries({ limit: 1000 }))).deliveries;
    expect(all.length).toBeGreaterThan(3);
    const walked = [];
    for await (const page of pages(api, 'listDeliveries', { limit: 3 })) walked.push(...page.deliveries);
    const ids = walked.map((delivery) => delivery.id);
    // Other scenarios may create deliveries meanwhile; those come after, in id order.
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, all.length)).toEqual(all.map((delivery) => delivery.id));
  });
});
