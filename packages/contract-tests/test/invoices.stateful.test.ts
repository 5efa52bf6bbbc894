// Invoices against the real service: search paging walked to the end, the search errors with their
// details, reads and writes with their conflicts, and account isolation.
import { describe, expect, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import type { Invoice } from '@invoice-api/contract';
import { clientFor, rawRequest, tokenFor } from '../src/clients.js';
import { companyClients, errorOf, statefulTargets } from '../src/stateful.js';

describe.each(statefulTargets())('$name: invoices', (target) => {
  it('search pages, walked to the end, return exactly `total` distinct invoices in order', async () => {
    const api = await clientFor(target);
    // The second client: no scenario writes invoices for it, so no page can shift under the walk.
    const [, client] = await companyClients(target);
    const criteria = [{ field: 'client_id' as const, operator: '=' as const, value: client?.id ?? 0 }];
    const limit = 40;
    const seen: Invoice[] = [];
    let total: number | undefined;
    for (let offset = 0, more = true; more; offset += limit) {
      const { data, pagination } = await expectOk(api.searchInvoices({ criteria, limit, offset, order_by: 'amount', order_direction: 'asc' }));
      expect(pagination).toMatchObject({ limit, offset });
      total ??= pagination.total;
      expect(pagination.total).toBe(total);
      expect(pagination.has_more).toBe(offset + data.length < total);
      seen.push(...data);
      more = pagination.has_more;
      if (offset > 100_000) throw new Error('paging does not end');
    }
    expect(total).toBeGreaterThan(limit * 2);
    expect(seen).toHaveLength(total ?? -1);
    expect(new Set(seen.map((invoice) => invoice.id)).size).toBe(total);
    expect(seen.every((invoice) => invoice.client_id === client?.id)).toBe(true);
    // Sorted by amount, ties broken by id in the same direction.
    for (let index = 1; index < seen.length; index += 1) {
      const [previous, current] = [seen[index - 1]!, seen[index]!];
      expect(previous.amount < current.amount || (previous.amount === current.amount && previous.id < current.id)).toBe(true);
    }
  });

  it('search pages by cursor, walked to the end, hold exactly the pages by offset', async () => {
    const api = await clientFor(target);
    const [, client] = await companyClients(target);
    const search = { criteria: [{ field: 'client_id' as const, operator: '=' as const, value: client?.id ?? 0 }], order_by: 'due_date' as const, limit: 15 };
    const byCursor: Invoice[][] = [];
    let cursor: string | undefined;
    do {
      const { data, pagination } = await expectOk(api.searchInvoices({ ...search, ...(cursor === undefined ? {} : { cursor }) }));
      expect(pagination.offset).toBe(byCursor.length * search.limit);
      expect(pagination.next_cursor !== undefined).toBe(pagination.has_more);
      byCursor.push(data);
      cursor = pagination.next_cursor;
      if (byCursor.length > 1_000) throw new Error('paging does not end');
    } while (cursor !== undefined);
    expect(byCursor.length).toBeGreaterThan(2);
    for (const [index, page] of byCursor.entries()) {
      const { data } = await expectOk(api.searchInvoices({ ...search, offset: index * search.limit }));
      expect(page).toEqual(data);
    }
  });

  it.each([
    ['another search', (cursor: string) => ({ order_by: 'amount', cursor }), 'belongs to another search'],
    ['an offset', (cursor: string) => ({ order_by: 'due_date', offset: 15, cursor }), 'cannot be combined with an offset'],
    [
      'an altered cursor',
      (cursor: string) => ({ order_by: 'due_date', cursor: `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}` }),
      'malformed or altered',
    ],
  ])('search: a cursor with %s is 400 invalid_request naming cursor', async (_label, body, issue) => {
    const api = await clientFor(target);
    const { pagination } = await expectOk(api.searchInvoices({ order_by: 'due_date', limit: 2 }));
    const token = await tokenFor(target);
    const result = await rawRequest(target, 'POST', '/api/v1/invoices/search', {
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body(pagination.next_cursor ?? '')),
    });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'invalid_request', details: { field: 'cursor', issue: expect.stringContaining(issue) } });
  });

  it.each([
    ['a limit over 1000', { limit: 1001 }, 'limit'],
    ['a negative offset', { offset: -1 }, 'offset'],
    ['an unknown order_by', { order_by: 'secret' }, 'order_by'],
    ['an unknown criterion field', { criteria: [{ field: 'client_name', operator: '=', value: 'x' }] }, 'client_name'],
    ['an operator the field does not allow', { criteria: [{ field: 'amount', operator: 'like', value: '1' }] }, 'amount'],
    ['a value of the wrong type', { criteria: [{ field: 'client_id', operator: '=', value: 'one' }] }, 'client_id'],
    ['between with one value', { criteria: [{ field: 'amount', operator: 'between', value: [1] }] }, 'amount'],
    ['an unknown top-level property', { page: 2 }, 'page'],
  ])('search: %s is 400 invalid_request naming %s', async (_label, body, field) => {
    // Sent raw: the typed client does not let most of these bodies compile.
    const token = await tokenFor(target);
    const result = await rawRequest(target, 'POST', '/api/v1/invoices/search', {
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'invalid_request', details: { field, issue: expect.any(String) } });
  });

  it('search without invoices:read is 403 forbidden, saying the permissions to search invoices are insufficient', async () => {
    const api = await clientFor(target, { scopes: ['deliveries:read'] });
    const result = await api.searchInvoices();
    expect(result.status).toBe(403);
    expect(errorOf(result)).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/search invoices/i) });
    expect(result.response.headers.get('WWW-Authenticate')).toMatch(/insufficient_scope.*invoices:read/);
  });

  it('create, read, search by its own timestamp, update; then the locks and transitions answer 409', async () => {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const created = await api.createInvoice({
      client_id: client?.id ?? 0,
      amount: 19.99,
      currency: 'CHF',
      due_date: '2027-01-31',
      description: 'Contract suite',
    });
    expect(created.status).toBe(201);
    const { invoice } = await expectOk(created);
    expect(created.response.headers.get('Location')).toBe(`/api/v1/invoices/${invoice.id}`);
    expect(invoice).toMatchObject({ client_id: client?.id, client_name: client?.name, amount: 19.99, status: 'draft', description: 'Contract suite' });
    expect(invoice.invoice_number).toMatch(/^INV-\d{6,}$/);
    expect(await expectOk(api.getInvoice(invoice.id))).toEqual({ invoice });

    const found = await expectOk(
      api.searchInvoices({
        criteria: [
          { field: 'created_at', operator: '=', value: invoice.created_at },
          { field: 'invoice_number', operator: '=', value: invoice.invoice_number },
        ],
      }),
    );
    expect(found.data).toEqual([invoice]);

    const edited = await expectOk(api.updateInvoice(invoice.id, { amount: 20.5, description: 'Edited' }));
    expect(edited.invoice).toMatchObject({ amount: 20.5, description: 'Edited', status: 'draft' });
    const sent = await expectOk(api.updateInvoice(invoice.id, { status: 'sent' }));
    expect(sent.invoice.status).toBe('sent');

    const locked = await api.updateInvoice(invoice.id, { amount: 21 });
    expect([locked.status, errorOf(locked).error]).toEqual([409, 'invoice_locked']);
    const backwards = await api.updateInvoice(invoice.id, { status: 'draft' });
    expect([backwards.status, errorOf(backwards).error]).toEqual([409, 'invalid_transition']);
    expect(await expectOk(api.getInvoice(invoice.id))).toEqual(sent);

    const duplicate = await api.createInvoice({
      client_id: client?.id ?? 0,
      amount: 1,
      currency: 'CHF',
      due_date: '2027-01-31',
      invoice_number: invoice.invoice_number,
    });
    expect(duplicate.status).toBe(409);
    expect(errorOf(duplicate)).toMatchObject({ error: 'conflict', details: { field: 'invoice_number' } });
  });

  it('create: a missing amount or an unknown client is 400 naming the field; null in an update is 400', async () => {
    const token = await tokenFor(target);
    const missing = await rawRequest(target, 'POST', '/api/v1/invoices', {
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: 1, currency: 'CHF', due_date: '2027-01-31' }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid_request', details: { field: 'amount' } });

    const api = await clientFor(target, { accountId: 1 });
    const [foreignClient] = await companyClients(target, 2);
    const unknownClient = await api.createInvoice({ client_id: foreignClient?.id ?? 0, amount: 1, currency: 'CHF', due_date: '2027-01-31' });
    expect(unknownClient.status).toBe(400);
    expect(errorOf(unknownClient)).toMatchObject({ error: 'invalid_request', details: { field: 'client_id' } });

    const nulled = await rawRequest(target, 'PATCH', '/api/v1/invoices/1', {
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: null }),
    });
    expect(nulled.status).toBe(400);
    expect(nulled.body).toMatchObject({ error: 'invalid_request', details: { field: 'description' } });
  });

  it("another account's invoice, user and company client are 404, like ones that do not exist", async () => {
    const stranger = await clientFor(target, { accountId: 2 });
    const owner = await clientFor(target, { accountId: 1 });
    const { data } = await expectOk(owner.searchInvoices({ limit: 1 }));
    const { users } = await expectOk(owner.listUsers());
    const [client] = await companyClients(target, 1);
    const answers = [
      await stranger.getInvoice(data[0]?.id ?? 0),
      await stranger.getUser(users[0]?.id ?? 0),
      await stranger.getCompanyClient(client?.id ?? 0),
      await owner.getInvoice(2_000_000_000),
    ];
    expect(answers.map((answer) => [answer.status, errorOf(answer).error])).toEqual(Array.from({ length: 4 }, () => [404, 'not_found']));
    const strangersUsers = (await expectOk(stranger.listUsers())).users.map((user) => user.id);
    expect(strangersUsers.some((id) => users.some((user) => user.id === id))).toBe(false);
  });
});
