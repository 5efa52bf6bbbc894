// ETag and If-Match through real HTTP on both engines: reads and updates carry a strong ETag that moves
// with every change and only then; an update with a stale If-Match is 412 and writes nothing; `*`,
// lists and weak tags follow RFC 9110; 404 comes before 412, 412 before 409; and of two concurrent
// updates sent with the same ETag exactly one is applied.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIfMatch } from '../../src/preconditions/index.js';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { accountCalls } from '../http/support/account-calls.js';
import { startTestService, token, type TestService } from '../http/support/service.js';

describe.each(engines)('ETag and If-Match on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'if_match' });
  let service: TestService;
  let account: TestAccount;
  let bearer: string;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 2 });
    bearer = await token({ accountId: account.accountId, clientId: `if-match-${randomUUID()}` });
    service = await startTestService({ database: database(), handlers: createHandlers() });
  });
  afterAll(() => service?.close());

  const { call, newInvoice, newDelivery } = accountCalls(
    () => service.url,
    () => bearer,
    () => account,
  );
  const errorOf = async (response: Response) => (await response.json()) as { error: string; details?: { field: string } };

  describe('invoices', () => {
    it('carries a strong ETag that moves with a change and stays on a no-op', async () => {
      const id = await newInvoice();
      const read = await call('GET', `/api/v1/invoices/${id}`);
      expect(read.headers.get('etag')).toBe(`"${id}-1"`);
      const noop = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 5 });
      expect(noop.headers.get('etag')).toBe(`"${id}-1"`);
      const changed = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 6 });
      expect(changed.headers.get('etag')).toBe(`"${id}-2"`);
      expect((await call('GET', `/api/v1/invoices/${id}`)).headers.get('etag')).toBe(`"${id}-2"`);
    });

    it('applies an update whose If-Match lists the current ETag, `*`, or a list holding it', async () => {
      const id = await newInvoice();
      expect((await call('PATCH', `/api/v1/invoices/${id}`, { amount: 7 }, { 'if-match': `"${id}-1"` })).status).toBe(200);
      expect((await call('PATCH', `/api/v1/invoices/${id}`, { amount: 8 }, { 'if-match': '*' })).status).toBe(200);
      const listed = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 9 }, { 'if-match': `"0-0", , "${id}-3"` });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('etag')).toBe(`"${id}-4"`);
    });

    it('answers 412 precondition_failed to a stale or weak tag and writes nothing', async () => {
      const id = await newInvoice();
      await call('PATCH', `/api/v1/invoices/${id}`, { amount: 11 });
      for (const tag of [`"${id}-1"`, `W/"${id}-2"`]) {
        const stale = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 99 }, { 'if-match': tag });
        expect(stale.status).toBe(412);
        expect(await stale.json()).toEqual({
          error: 'precondition_failed',
          message: `Invoice ${id} has changed: its current ETag is not one If-Match lists.`,
          details: { field: 'If-Match', issue: 'does not match the current ETag' },
        });
      }
      const after = (await (await call('GET', `/api/v1/invoices/${id}`)).json()) as { invoice: { amount: number } };
      expect(after.invoice.amount).toBe(11);
    });

    it('answers 404 before 412, and 412 before 409', async () => {
      expect((await call('PATCH', '/api/v1/invoices/999999999', { amount: 1 }, { 'if-match': '"1-1"' })).status).toBe(404);
      const id = await newInvoice();
      await call('PATCH', `/api/v1/invoices/${id}`, { status: 'sent' });
      const stale = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 1 }, { 'if-match': `"${id}-1"` });
      expect(stale.status).toBe(412);
      const locked = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 1 }, { 'if-match': `"${id}-2"` });
      expect(locked.status).toBe(409);
    });

    it('answers 400 naming If-Match when it is neither * nor entity tags', async () => {
      const id = await newInvoice();
      const response = await call('PATCH', `/api/v1/invoices/${id}`, { amount: 1 }, { 'if-match': `${id}-1` });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ error: 'invalid_request', details: { field: 'If-Match' } });
    });

    it('applies exactly one of two concurrent updates sent with the same ETag', async () => {
      const id = await newInvoice();
      const answers = await Promise.all([12, 13].map((amount) => call('PATCH', `/api/v1/invoices/${id}`, { amount }, { 'if-match': `"${id}-1"` })));
      expect(answers.map((response) => response.status).sort()).toEqual([200, 412]);
      const winner = answers.find((response) => response.status === 200)!;
      const { invoice } = (await winner.json()) as { invoice: { amount: number } };
      const stored = (await (await call('GET', `/api/v1/invoices/${id}`)).json()) as { invoice: { amount: number } };
      expect(stored.invoice.amount).toBe(invoice.amount);
    });
  });

  describe('deliveries', () => {
    it('carries an ETag on read and update; issuing moves it', async () => {
      const id = await newDelivery();
      expect((await call('GET', `/2.0/delivery/${id}`)).headers.get('etag')).toBe(`"${id}-1"`);
      const updated = await call('PATCH', `/2.0/delivery/${id}`, { delivery_date: '2026-05-01' }, { 'if-match': `"${id}-1"` });
      expect(updated.status).toBe(200);
      expect(updated.headers.get('etag')).toBe(`"${id}-2"`);
      const issued = await call('POST', '/2.0/delivery/issue', {
        delivery_id: id,
        contact_id: account.clientIds[0],
        items: [{ item_id: 1, quantity: 1, unit_price: 1 }],
      });
      expect(issued.status).toBe(200);
      expect((await call('GET', `/2.0/delivery/${id}`)).headers.get('etag')).toBe(`"${id}-3"`);
      // A stale tag is 412 even on an issued delivery (the precondition comes before the state).
      expect((await call('PATCH', `/2.0/delivery/${id}`, { delivery_date: '2026-05-02' }, { 'if-match': `"${id}-2"` })).status).toBe(412);
      expect(await errorOf(await call('PATCH', `/2.0/delivery/${id}`, { delivery_date: '2026-05-02' }, { 'if-match': `"${id}-3"` }))).toMatchObject({
        error: 'already_issued',
      });
    });

    it('applies exactly one of two concurrent updates sent with the same ETag', async () => {
      const id = await newDelivery();
      const answers = await Promise.all(
        ['2026-06-01', '2026-06-02'].map((date) => call('PATCH', `/2.0/delivery/${id}`, { delivery_date: date }, { 'if-match': `"${id}-1"` })),
      );
      expect(answers.map((response) => response.status).sort()).toEqual([200, 412]);
      expect(await errorOf(answers.find((response) => response.status === 412)!)).toMatchObject({ error: 'precondition_failed' });
    });

    it('updates without If-Match as before', async () => {
      const id = await newDelivery();
      expect((await call('PATCH', `/2.0/delivery/${id}`, { delivery_date: '2026-07-01' })).status).toBe(200);
      expect((await call('PATCH', `/2.0/delivery/${id}`, { delivery_date: '2026-07-02' })).status).toBe(200);
    });
  });
});

describe('parseIfMatch', () => {
  it('reads *, lists with empty elements, and drops weak tags', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch(' * ')).toEqual({ any: true });
    expect(parseIfMatch('"a", W/"b",,"c"')).toEqual({ any: false, strongTags: ['"a"', '"c"'] });
  });

  it.each(['', 'abc', '"a" "b"', '*, "a"', 'w/"a"', '"a'])('refuses %j with 400', (value) => {
    expect(() => parseIfMatch(value)).toThrow(
      expect.objectContaining({ status: 400, details: expect.objectContaining({ field: 'If-Match' }) }) as unknown as Error,
    );
  });
});
