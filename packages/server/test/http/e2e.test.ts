// The real handlers behind the real HTTP layer, on both engines, with response validation on: the
// wiring (typed params, bodies, Location, status codes) and the errors that only handlers raise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, Invoice, InvoiceSearchResult } from '@invoice-api/contract';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { errorBody } from './support/responses.js';
import { startTestService, token, type TestService } from './support/service.js';

describe.each(engines)('the service on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'http_e2e' });
  let service: TestService;
  let account: TestAccount;
  let other: TestAccount;
  let bearer: string;

  beforeAll(async () => {
    service = await startTestService({ database: database(), handlers: createHandlers() });
    account = await createAccount(database());
    other = await createAccount(database());
    bearer = await token({ accountId: account.accountId, clientId: `e2e-${engine}` });
  });
  afterAll(() => service?.close());

  const send = (method: string, path: string, body?: unknown, authorization = `Bearer ${bearer}`) =>
    fetch(`${service.url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('answers the health check', async () => {
    const response = await fetch(`${service.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('creates an invoice (201 + Location), reads it back and finds it by search', async () => {
    const created = await send('POST', '/api/v1/invoices', {
      client_id: account.clientIds[0],
      amount: 4200.5,
      currency: 'CHF',
      due_date: '2026-12-31',
      description: 'Relaunch',
    });
    expect(created.status).toBe(201);
    const { invoice } = (await created.json()) as { invoice: Invoice };
    expect(created.headers.get('location')).toBe(`/api/v1/invoices/${invoice.id}`);
    expect(invoice).toMatchObject({ amount: 4200.5, currency: 'CHF', status: 'draft', due_date: '2026-12-31' });

    const read = await send('GET', created.headers.get('location') ?? '');
    expect(read.status).toBe(200);
    expect(((await read.json()) as { invoice: Invoice }).invoice).toEqual(invoice);

    const found = await send('POST', '/api/v1/invoices/search', { criteria: [{ field: 'amount', operator: '=', value: 4200.5 }] });
    expect(found.status).toBe(200);
    const result = (await found.json()) as InvoiceSearchResult;
    expect(result.data.map((entry) => entry.id)).toEqual([invoice.id]);
    expect(result.pagination).toEqual({ total: 1, limit: 50, offset: 0, has_more: false });
  });

  it("answers 404 for a missing invoice and for another account's", async () => {
    const elsewhere = await send(
      'POST',
      '/api/v1/invoices',
      { client_id: other.clientIds[0], amount: 1, currency: 'EUR', due_date: '2026-01-31' },
      `Bearer ${await token({ accountId: other.accountId })}`,
    );
    expect(elsewhere.status).toBe(201);
    const foreignId = ((await elsewhere.json()) as { invoice: Invoice }).invoice.id;
    for (const id of [foreignId, 2_000_000_000]) {
      const response = await send('GET', `/api/v1/invoices/${id}`);
      expect(response.status).toBe(404);
      expect(await errorBody(response)).toEqual({ error: 'not_found', message: expect.any(String) });
    }
  });

  it('names a criterion whose operator the field does not allow (a rule the handler checks)', async () => {
    const response = await send('POST', '/api/v1/invoices/search', { limit: 10, criteria: [{ field: 'amount', operator: 'like', value: '4' }] });
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body).toMatchObject({ error: 'invalid_request', details: { field: 'amount' } });
    expect(body.details?.issue).toMatch(/like/);
  });

  it('issues a delivery once, then answers 409 already_issued', async () => {
    const draft = await send('POST', '/2.0/delivery', { contact_id: account.clientIds[0] });
    expect(draft.status).toBe(201);
    const { delivery } = (await draft.json()) as { delivery: Delivery };
    const issueRequest = {
      delivery_id: delivery.id,
      contact_id: account.clientIds[0],
      delivery_date: '2026-11-25',
      items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }],
    };

    const issued = await send('POST', '/2.0/delivery/issue', issueRequest);
    expect(issued.status).toBe(200);
    expect(await issued.json()).toMatchObject({ id: delivery.id, status: 'issued', total_amount: 59.97 });

    const again = await send('POST', '/2.0/delivery/issue', issueRequest);
    expect(again.status).toBe(409);
    expect(await errorBody(again)).toMatchObject({ error: 'already_issued', message: expect.stringContaining(String(delivery.id)) });
  });

  it('passes validated query parameters to a list', async () => {
    const response = await send('GET', '/2.0/delivery?limit=1&offset=0');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { deliveries: Delivery[] }).deliveries.length).toBeLessThanOrEqual(1);
  });
});
