import type { Delivery, DeliveryCreate, DeliveryIssue, DeliveryUpdate } from '@invoice-api/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDelivery, getDelivery, issueDelivery, listDeliveries, updateDelivery } from '../../src/operations/deliveries.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';
import { partition, refusal } from '../support/outcomes.js';

describe.each(engines)('delivery operations on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'ops_deliveries' });
  let mine: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    mine = await createAccount(database(), { clients: 3 });
    other = await createAccount(database());
  });

  const context = (account: TestAccount = mine) => contextFor(database(), account.accountId);
  const create = async (body: Partial<DeliveryCreate> = {}, account: TestAccount = mine) => {
    const answer = await createDelivery({ params: {}, query: {}, body: { contact_id: account.clientIds[0]!, ...body } }, context(account));
    if (answer.status !== 201) throw new Error(`unexpected ${answer.status}`);
    return answer;
  };
  const read = async (deliveryId: number, account: TestAccount = mine): Promise<Delivery> => {
    const answer = await getDelivery({ params: { delivery_id: deliveryId }, query: {}, body: undefined }, context(account));
    if (answer.status !== 200) throw new Error(`unexpected ${answer.status}`);
    return answer.body.delivery;
  };
  const update = async (deliveryId: number, body: DeliveryUpdate, account: TestAccount = mine): Promise<Delivery> => {
    const answer = await updateDelivery({ params: { delivery_id: deliveryId }, query: {}, body }, context(account));
    if (answer.status !== 200) throw new Error(`unexpected ${answer.status}`);
    return answer.body.delivery;
  };
  const issue = async (body: DeliveryIssue, account: TestAccount = mine): Promise<Delivery> => {
    const answer = await issueDelivery({ params: {}, query: {}, body }, context(account));
    if (answer.status !== 200) throw new Error(`unexpected ${answer.status}`);
    return answer.body;
  };
  const lines = [
    { item_id: 10, quantity: 1.5, unit_price: 19.99 },
    { item_id: 11, quantity: 3, unit_price: 0.1 },
  ];

  describe('createDelivery', () => {
    it('creates a numbered draft with priced lines and a Location', async () => {
      const answer = await create({ delivery_date: '2026-04-01', items: lines });
      const { delivery } = answer.body;
      expect(answer.headers.Location).toBe(`/2.0/delivery/${delivery.id}`);
      expect(delivery).toMatchObject({
        delivery_nr: 'LS-000001',
        contact_id: mine.clientIds[0],
        delivery_date: '2026-04-01',
        status: 'draft',
        total_amount: 30.29,
        currency: 'CHF',
      });
      expect(delivery.items.map(({ item_id, quantity, unit_price, total }) => ({ item_id, quantity, unit_price, total }))).toEqual([
        { item_id: 10, quantity: 1.5, unit_price: 19.99, total: 29.99 },
        { item_id: 11, quantity: 3, unit_price: 0.1, total: 0.3 },
      ]);
      expect(await read(delivery.id)).toEqual(delivery);
    });

    it("states the account's default currency on every answer: create, read, list, update, issue", async () => {
      const euro = await createAccount(database(), { currency: 'EUR' });
      const { delivery } = (await create({ items: lines }, euro)).body;
      expect(delivery.currency).toBe('EUR');
      expect((await read(delivery.id, euro)).currency).toBe('EUR');
      const listed = await listDeliveries({ params: {}, query: {}, body: undefined }, context(euro));
      if (listed.status !== 200) throw new Error(`unexpected ${listed.status}`);
      expect(listed.body.deliveries.map((entry) => entry.currency)).toEqual(['EUR']);
      expect((await update(delivery.id, { delivery_date: '2026-05-01' }, euro)).currency).toBe('EUR');
      expect((await issue({ delivery_id: delivery.id, contact_id: euro.clientIds[0]!, items: lines }, euro)).currency).toBe('EUR');
    });

    it('accepts a draft without items or date and numbers the next one', async () => {
      const { delivery } = (await create()).body;
      expect(delivery).toMatchObject({ delivery_nr: 'LS-000002', delivery_date: null, total_amount: 0, items: [] });
    });

    it('rejects a contact of another account with 400 naming contact_id', async () => {
      expect(await refusal(create({ contact_id: other.clientIds[0]! }))).toMatchObject({
        status: 400,
        code: 'invalid_request',
        details: { field: 'contact_id' },
      });
    });

    it('rejects a total above 999,999,999,999.99 naming items', async () => {
      const huge = [{ item_id: 1, quantity: 999999.999, unit_price: 999999999.9999 }];
      expect(await refusal(create({ items: huge }))).toMatchObject({ status: 400, details: { field: 'items' } });
    });

    it('numbers concurrent creates without repeats', async () => {
      const account = await createAccount(database());
      const results = await Promise.allSettled(Array.from({ length: 15 }, () => create({}, account)));
      const { answers, errors } = partition(results);
      expect(errors).toEqual([]);
      expect(answers.map((answer) => answer.body.delivery.delivery_nr).sort()).toEqual(
        Array.from({ length: 15 }, (_, index) => `LS-${String(index + 1).padStart(6, '0')}`),
      );
    });
  });

  describe('getDelivery and listDeliveries', () => {
    it("answers 404 for another account's delivery exactly like a missing one", async () => {
      const theirs = (await create({}, other)).body.delivery;
      const foreign = await refusal(read(theirs.id));
      const missing = await refusal(read(999_999));
      expect(foreign).toMatchObject({ status: 404, code: 'not_found' });
      expect(missing).toMatchObject({ status: 404, code: 'not_found' });
      expect(foreign.message.replace(String(theirs.id), 'N')).toBe(missing.message.replace('999999', 'N'));
    });

    it("lists the account's deliveries by id with their items, one page at a time", async () => {
      const account = await createAccount(database());
      for (let index = 0; index < 5; index += 1) await create({ items: lines.slice(0, (index % 2) + 1) }, account);
      const all = await listDeliveries({ params: {}, query: {}, body: undefined }, context(account));
      expect(all.status).toBe(200);
      if (all.status !== 200) return;
      const ids = all.body.deliveries.map((delivery) => delivery.id);
      expect(ids).toHaveLength(5);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(all.body.deliveries.map((delivery) => delivery.items.length)).toEqual([1, 2, 1, 2, 1]);
      const page = await listDeliveries({ params: {}, query: { limit: 2, offset: 3 }, body: undefined }, context(account));
      expect(page.status === 200 && page.body.deliveries.map((delivery) => delivery.id)).toEqual(ids.slice(3, 5));
    });
  });

  describe('updateDelivery', () => {
    it('replaces the fields present on a draft, items as a whole, and moves updated_at', async () => {
      const draft = (await create({ items: lines, delivery_date: '2026-04-01' })).body.delivery;
      const updated = await update(draft.id, { items: [{ item_id: 12, quantity: 2, unit_price: 5.555 }], contact_id: mine.clientIds[1]! });
      expect(updated).toMatchObject({ contact_id: mine.clientIds[1], delivery_date: '2026-04-01', total_amount: 11.11, status: 'draft' });
      expect(updated.items.map((item) => [item.item_id, item.total])).toEqual([[12, 11.11]]);
      expect(updated.updated_at > draft.updated_at).toBe(true);
      expect(await read(draft.id)).toEqual(updated);
    });

    it('changes nothing, not even updated_at, when the values are the stored ones', async () => {
      const draft = (await create({ items: lines, delivery_date: '2026-04-01' })).body.delivery;
      expect(await update(draft.id, { items: lines, delivery_date: '2026-04-01', contact_id: draft.contact_id })).toEqual(draft);
      expect(await update(draft.id, {})).toEqual(draft);
    });

    it('refuses to change an issued delivery with 409 already_issued and changes nothing', async () => {
      const draft = (await create({ items: lines })).body.delivery;
      const issued = await issue({ delivery_id: draft.id, contact_id: draft.contact_id, items: lines });
      expect(await refusal(update(draft.id, { delivery_date: '2030-01-01' }))).toMatchObject({ status: 409, code: 'already_issued' });
      expect(await read(draft.id)).toEqual(issued);
    });

    it("answers 404 for another account's draft and leaves it alone", async () => {
      const theirs = (await create({}, other)).body.delivery;
      expect(await refusal(update(theirs.id, { delivery_date: '2030-01-01' }))).toMatchObject({ status: 404 });
      expect(await read(theirs.id, other)).toEqual(theirs);
    });
  });

  describe('issueDelivery', () => {
    it("replaces the draft's contact, items and date, and answers the bare delivery", async () => {
      const draft = (await create({ items: lines, delivery_date: '2026-04-01' })).body.delivery;
      const issued = await issue({
        delivery_id: draft.id,
        contact_id: mine.clientIds[2]!,
        delivery_date: '2026-04-15',
        items: [{ item_id: 99, quantity: 0.333, unit_price: 3 }],
      });
      expect(issued).toMatchObject({
        id: draft.id,
        delivery_nr: draft.delivery_nr,
        status: 'issued',
        contact_id: mine.clientIds[2],
        delivery_date: '2026-04-15',
        total_amount: 1,
      });
      expect(issued.items.map((item) => [item.item_id, item.quantity, item.total])).toEqual([[99, 0.333, 1]]);
      expect(issued.updated_at > draft.updated_at).toBe(true);
      expect(await read(draft.id)).toEqual(issued);
    });

    it("dates the issue with the draft's date when the request has none, else today (UTC)", async () => {
      const dated = (await create({ delivery_date: '2026-04-01' })).body.delivery;
      expect((await issue({ delivery_id: dated.id, contact_id: dated.contact_id, items: lines })).delivery_date).toBe('2026-04-01');
      const undated = (await create()).body.delivery;
      const before = new Date().toISOString().slice(0, 10);
      const issued = await issue({ delivery_id: undated.id, contact_id: undated.contact_id, items: lines });
      const after = new Date().toISOString().slice(0, 10);
      expect([before, after]).toContain(issued.delivery_date);
    });

    it('answers 409 already_issued naming the delivery on a second issue, changing nothing', async () => {
      const draft = (await create()).body.delivery;
      const issued = await issue({ delivery_id: draft.id, contact_id: draft.contact_id, items: lines });
      const again = await refusal(issue({ delivery_id: draft.id, contact_id: mine.clientIds[1]!, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] }));
      expect(again).toMatchObject({ status: 409, code: 'already_issued' });
      expect(again.message).toContain(String(draft.id));
      expect(await read(draft.id)).toEqual(issued);
    });

    it("answers 404 for a missing delivery and for another account's draft, which stays a draft", async () => {
      expect(await refusal(issue({ delivery_id: 999_999, contact_id: mine.clientIds[0]!, items: lines }))).toMatchObject({ status: 404, code: 'not_found' });
      const theirs = (await create({}, other)).body.delivery;
      expect(await refusal(issue({ delivery_id: theirs.id, contact_id: mine.clientIds[0]!, items: lines }))).toMatchObject({ status: 404, code: 'not_found' });
      expect((await read(theirs.id, other)).status).toBe('draft');
    });

    it('validates before looking the delivery up: a foreign contact or a total over the ceiling is 400', async () => {
      const draft = (await create()).body.delivery;
      expect(await refusal(issue({ delivery_id: draft.id, contact_id: other.clientIds[0]!, items: lines }))).toMatchObject({
        status: 400,
        details: { field: 'contact_id' },
      });
      const huge = [{ item_id: 1, quantity: 999999.999, unit_price: 999999999.9999 }];
      expect(await refusal(issue({ delivery_id: draft.id, contact_id: draft.contact_id, items: huge }))).toMatchObject({
        status: 400,
        details: { field: 'items' },
      });
      expect(await refusal(issue({ delivery_id: draft.id, contact_id: draft.contact_id, items: [] }))).toMatchObject({
        status: 400,
        details: { field: 'items' },
      });
      expect(await read(draft.id)).toEqual(draft);
    });

    it("lets exactly one of 50 racing issues of one draft win; the stored delivery is the winner's, whole", async () => {
      const draft = (await create({ items: lines })).body.delivery;
      // Each caller sends its own lines, so the stored lines tell whose issue won.
      const bodies: DeliveryIssue[] = Array.from({ length: 50 }, (_, caller) => ({
        delivery_id: draft.id,
        contact_id: mine.clientIds[caller % 3]!,
        delivery_date: `2026-05-${String((caller % 28) + 1).padStart(2, '0')}`,
        items: Array.from({ length: (caller % 4) + 1 }, (_, line) => ({ item_id: 1000 + caller, quantity: line + 1, unit_price: caller + 0.25 })),
      }));
      const results = await Promise.allSettled(bodies.map((body) => issue(body)));
      const { answers, errors } = partition(results);
      expect(answers).toHaveLength(1);
      expect(errors).toHaveLength(49);
      for (const error of errors) {
        expect(error).toMatchObject({ status: 409, code: 'already_issued' });
        expect(error.message).toContain(String(draft.id));
      }
      const winner = answers[0]!;
      const caller = winner.items[0]!.item_id - 1000;
      const sent = bodies[caller]!;
      expect(winner).toMatchObject({ status: 'issued', contact_id: sent.contact_id, delivery_date: sent.delivery_date });
      expect(winner.items.map((item) => [item.item_id, item.quantity, item.unit_price])).toEqual(
        sent.items.map((item) => [item.item_id, item.quantity, item.unit_price]),
      );
      expect(await read(draft.id)).toEqual(winner);
    });
  });
});
