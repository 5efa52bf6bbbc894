// Removal through real HTTP on both engines: a draft invoice or delivery is removed with 204 and no
// body and is 404 from then on; an invoice that left draft and an issued delivery are 409 and stay
// whole; If-Match holds a removal to a version (412, before 409); another account's is 404; the
// search totals (kept counts) count the removal at once, and db:check-totals' comparison stays clean.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareInvoiceCounts } from '../../src/db/invoice-counts.js';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { accountCalls } from '../http/support/account-calls.js';
import { startTestService, token, type TestService } from '../http/support/service.js';

describe.each(engines)('removal on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'removal' });
  let service: TestService;
  let account: TestAccount;
  let other: TestAccount;
  let bearer: string;
  let otherBearer: string;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 2 });
    other = await createAccount(database(), { clients: 1 });
    bearer = await token({ accountId: account.accountId, clientId: `removal-${randomUUID()}` });
    otherBearer = await token({ accountId: other.accountId, clientId: `removal-${randomUUID()}` });
    service = await startTestService({ database: database(), handlers: createHandlers() });
  });
  afterAll(() => service?.close());

  const { call, newInvoice, newDelivery } = accountCalls(
    () => service.url,
    () => bearer,
    () => account,
  );
  const totalOf = async (criteria: unknown[] = []) => {
    const response = await call('POST', '/api/v1/invoices/search', { criteria });
    expect(response.status).toBe(200);
    return ((await response.json()) as { pagination: { total: number } }).pagination.total;
  };
  const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error: string; message: string }) });

  describe('invoices', () => {
    it('removes a draft with 204 and no body; it is 404 after, and the totals count it at once', async () => {
      const id = await newInvoice();
      const [all, drafts] = [await totalOf(), await totalOf([{ field: 'status', operator: '=', value: 'draft' }])];
      const removed = await call('DELETE', `/api/v1/invoices/${id}`);
      expect(removed.status).toBe(204);
      expect(removed.headers.get('content-type')).toBeNull();
      expect(await removed.text()).toBe('');
      expect(removed.headers.get('x-request-id')).not.toBeNull();
      expect((await call('GET', `/api/v1/invoices/${id}`)).status).toBe(404);
      expect(await errorOf(await call('DELETE', `/api/v1/invoices/${id}`))).toMatchObject({ status: 404, error: 'not_found' });
      expect([await totalOf(), await totalOf([{ field: 'status', operator: '=', value: 'draft' }])]).toEqual([all - 1, drafts - 1]);
      expect((await compareInvoiceCounts(database().db)).differences).toEqual([]);
    });

    it('keeps an invoice that left draft: 409 invoice_locked, nothing removed', async () => {
      const id = await newInvoice('sent');
      expect(await errorOf(await call('DELETE', `/api/v1/invoices/${id}`))).toEqual({
        status: 409,
        error: 'invoice_locked',
        message: `Invoice ${id} is 'sent': only a draft invoice can be removed.`,
      });
      expect((await call('GET', `/api/v1/invoices/${id}`)).status).toBe(200);
    });

    it('holds a removal to the version If-Match names: stale is 412 (before 409) and removes nothing', async () => {
      const id = await newInvoice();
      expect(await errorOf(await call('DELETE', `/api/v1/invoices/${id}`, undefined, { 'if-match': `"${id}-9"` }))).toMatchObject({
        status: 412,
        error: 'precondition_failed',
      });
      expect((await call('GET', `/api/v1/invoices/${id}`)).status).toBe(200);
      const sent = await newInvoice('sent');
      expect((await call('DELETE', `/api/v1/invoices/${sent}`, undefined, { 'if-match': `"${sent}-9"` })).status).toBe(412);
      expect((await call('DELETE', `/api/v1/invoices/${id}`, undefined, { 'if-match': `"${id}-1"` })).status).toBe(204);
    });

    it("answers another account's invoice as 404 and leaves it", async () => {
      const id = await newInvoice();
      expect((await call('DELETE', `/api/v1/invoices/${id}`, undefined, {}, otherBearer)).status).toBe(404);
      expect((await call('GET', `/api/v1/invoices/${id}`)).status).toBe(200);
    });

    it('refuses a token without invoices:write with 403 naming the scope', async () => {
      const id = await newInvoice();
      const reader = await token({ accountId: account.accountId, clientId: `removal-${randomUUID()}`, scopes: ['invoices:read'] });
      expect(await errorOf(await call('DELETE', `/api/v1/invoices/${id}`, undefined, {}, reader))).toEqual({
        status: 403,
        error: 'forbidden',
        message: "Your permissions to remove an invoice are insufficient: the token needs the scope 'invoices:write'.",
      });
    });
  });

  describe('deliveries', () => {
    it('removes a draft with its items: 204, then 404, and no item of it is left', async () => {
      const id = await newDelivery();
      const updated = await call('PATCH', `/2.0/delivery/${id}`, { items: [{ item_id: 1, quantity: 2, unit_price: 3 }] });
      expect(updated.status).toBe(200);
      const removed = await call('DELETE', `/2.0/delivery/${id}`);
      expect(removed.status).toBe(204);
      expect(await removed.text()).toBe('');
      expect((await call('GET', `/2.0/delivery/${id}`)).status).toBe(404);
      const { rows } = await sql<{ items: number }>`select count(*) as items from delivery_items where delivery_id = ${id}`.execute(database().db);
      expect(rows[0]?.items).toBe(0);
    });

    it('keeps an issued delivery: 409 already_issued, and it reads as before', async () => {
      const id = await newDelivery();
      const issued = await call('POST', '/2.0/delivery/issue', {
        delivery_id: id,
        contact_id: account.clientIds[0],
        items: [{ item_id: 1, quantity: 1, unit_price: 1 }],
      });
      expect(issued.status).toBe(200);
      const before = await (await call('GET', `/2.0/delivery/${id}`)).json();
      expect(await errorOf(await call('DELETE', `/2.0/delivery/${id}`))).toEqual({
        status: 409,
        error: 'already_issued',
        message: `Delivery ${id} is already issued and can no longer change.`,
      });
      expect(await (await call('GET', `/2.0/delivery/${id}`)).json()).toEqual(before);
    });

    it('holds a removal to If-Match, and answers another account as 404', async () => {
      const id = await newDelivery();
      expect((await call('DELETE', `/2.0/delivery/${id}`, undefined, { 'if-match': `"${id}-9"` })).status).toBe(412);
      expect((await call('DELETE', `/2.0/delivery/${id}`, undefined, {}, otherBearer)).status).toBe(404);
      expect((await call('DELETE', `/2.0/delivery/${id}`, undefined, { 'if-match': `"${id}-1"` })).status).toBe(204);
    });
  });
});
