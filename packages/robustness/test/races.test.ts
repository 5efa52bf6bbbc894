// Concurrency on PostgreSQL: the answers the product decisions promise must hold when requests race,
// not only one at a time.
import { describe, expect, it } from 'vitest';
import { useServiceOnPostgres } from './support/fixtures.js';
import { call, type Answer } from './support/http.js';
import { token } from './support/tokens.js';

const fixture = useServiceOnPostgres('robust_races');

type Body = Record<string, unknown>;
const bodyOf = (answer: Answer): Body => answer.body as Body;

async function createInvoice(base: string, bearer: string, clientId: number, extra: Body = {}): Promise<Answer> {
  return call(base, 'POST', '/api/v1/invoices', {
    token: bearer,
    body: { client_id: clientId, amount: 100, currency: 'CHF', due_date: '2026-12-31', ...extra },
  });
}

describe('races', () => {
  it("50 concurrent issues of one draft: one 200, 49 x 409 already_issued, and the stored delivery is the winner's, whole", async () => {
    const { service, clientId } = fixture();
    const bearer = await token();
    const draft = await call(service.url, 'POST', '/2.0/delivery', { token: bearer, body: { contact_id: clientId } });
    expect(draft.status).toBe(201);
    const deliveryId = (bodyOf(draft)['delivery'] as Body)['id'] as number;

    // Every contender sends different items, so the stored delivery shows whose write won.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        call(service.url, 'POST', '/2.0/delivery/issue', {
          token: bearer,
          body: {
            delivery_id: deliveryId,
            contact_id: clientId,
            items: Array.from({ length: 1 + (n % 5) }, (_, line) => ({ item_id: n * 10 + line + 1, quantity: 1 + line, unit_price: n + 0.25 })),
          },
          timeoutMs: 30_000,
        }),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    const losers = answers.filter((answer) => answer.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    for (const loser of losers) expect(bodyOf(loser)['error']).toBe('already_issued');

    const winner = bodyOf(winners[0]!);
    const stored = await call(service.url, 'GET', `/2.0/delivery/${deliveryId}`, { token: bearer });
    const delivery = bodyOf(stored)['delivery'] as Body;
    expect(delivery['status']).toBe('issued');
    expect(delivery['items']).toEqual(winner['items']);
    expect(delivery['total_amount']).toEqual(winner['total_amount']);
    const lineSum = (delivery['items'] as Body[]).reduce((sum, item) => sum + Math.round((item['total'] as number) * 100), 0);
    expect(Math.round((delivery['total_amount'] as number) * 100)).toBe(lineSum);
  });

  it('concurrent partial updates of different fields of a draft all survive (no lost update)', async () => {
    const { service, clientId } = fixture();
    const bearer = await token();
    const created = await createInvoice(service.url, bearer, clientId);
    const id = (bodyOf(created)['invoice'] as Body)['id'] as number;
    const patches: Body[] = [{ amount: 4321.09 }, { due_date: '2027-03-31' }, { description: 'changed concurrently' }, { currency: 'EUR' }];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        call(service.url, 'PATCH', `/api/v1/invoices/${id}`, { token: bearer, body: patches[n % patches.length], timeoutMs: 30_000 }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const stored = bodyOf(await call(service.url, 'GET', `/api/v1/invoices/${id}`, { token: bearer }))['invoice'] as Body;
    expect(stored).toMatchObject({ amount: 4321.09, due_date: '2027-03-31', description: 'changed concurrently', currency: 'EUR', status: 'draft' });
  });

  it('racing final transitions (paid vs cancelled) of a sent invoice: exactly one wins, the others get 409 invalid_transition', async () => {
    const { service, clientId } = fixture();
    const bearer = await token();
    const created = await createInvoice(service.url, bearer, clientId, { status: 'sent' });
    expect(created.status).toBe(201);
    const id = (bodyOf(created)['invoice'] as Body)['id'] as number;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        call(service.url, 'PATCH', `/api/v1/invoices/${id}`, { token: bearer, body: { status: n % 2 === 0 ? 'paid' : 'cancelled' }, timeoutMs: 30_000 }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(accepted.length + refused.length).toBe(answers.length);
    // paid and cancelled are final: once one is stored, no other status may follow. Repeating the
    // same final status is not a transition; count the distinct final statuses acknowledged instead.
    const acknowledgedStatuses = new Set(accepted.map((answer) => (bodyOf(answer)['invoice'] as Body)['status']));
    expect(acknowledgedStatuses.size).toBe(1);
    for (const answer of refused) expect(bodyOf(answer)['error']).toBe('invalid_transition');
    const stored = bodyOf(await call(service.url, 'GET', `/api/v1/invoices/${id}`, { token: bearer }))['invoice'] as Body;
    expect(acknowledgedStatuses.has(stored['status'])).toBe(true);
  });

  it('concurrent description updates of a sent invoice: the stored one is one that was acknowledged', async () => {
    const { service, clientId } = fixture();
    const bearer = await token();
    const created = await createInvoice(service.url, bearer, clientId, { status: 'sent' });
    const id = (bodyOf(created)['invoice'] as Body)['id'] as number;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        call(service.url, 'PATCH', `/api/v1/invoices/${id}`, { token: bearer, body: { description: `writer ${n}` }, timeoutMs: 30_000 }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const stored = bodyOf(await call(service.url, 'GET', `/api/v1/invoices/${id}`, { token: bearer }))['invoice'] as Body;
    expect(Array.from({ length: 30 }, (_, n) => `writer ${n}`)).toContain(stored['description']);
    expect(stored['status']).toBe('sent');
  });

  it('concurrent creates never duplicate a generated invoice_number, and a contested explicit one is taken once', async () => {
    const { service, clientId, postgres } = fixture();
    const bearer = await token();
    const generated = await Promise.all(Array.from({ length: 50 }, () => createInvoice(service.url, bearer, clientId)));
    for (const answer of generated) expect(answer.status).toBe(201);
    const numbers = generated.map((answer) => (bodyOf(answer)['invoice'] as Body)['invoice_number']);
    expect(new Set(numbers).size).toBe(50);

    const contested = await Promise.all(Array.from({ length: 20 }, () => createInvoice(service.url, bearer, clientId, { invoice_number: 'RACE-0001' })));
    expect(contested.filter((answer) => answer.status === 201)).toHaveLength(1);
    const conflicts = contested.filter((answer) => answer.status === 409);
    expect(conflicts).toHaveLength(19);
    for (const answer of conflicts) expect(bodyOf(answer)).toMatchObject({ error: 'conflict', details: { field: 'invoice_number' } });

    const duplicates = await postgres.query('select account_id, invoice_number from invoices group by 1, 2 having count(*) > 1');
    expect(duplicates).toEqual([]);
  });
});
