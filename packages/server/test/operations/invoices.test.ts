import type { InvoiceCreate, InvoiceUpdate } from '@invoice-api/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createInvoice, getInvoice, searchInvoices, updateInvoice } from '../../src/operations/invoices.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';
import { partition, refusal } from '../support/outcomes.js';

describe.each(engines)('invoice operations on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'ops_invoices' });
  let mine: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    mine = await createAccount(database(), { clients: 3 });
    other = await createAccount(database());
  });

  const context = (account: TestAccount = mine) => contextFor(database(), account.accountId);
  const newInvoice = (overrides: Partial<InvoiceCreate>, account: TestAccount): InvoiceCreate => ({
    client_id: account.clientIds[0]!,
    amount: 120.5,
    currency: 'CHF',
    due_date: '2026-03-31',
    ...overrides,
  });
  const create = async (overrides: Partial<InvoiceCreate> = {}, account: TestAccount = mine) => {
    const answer = await createInvoice({ params: {}, query: {}, body: newInvoice(overrides, account) }, context(account));
    if (answer.status !== 201) throw new Error(`unexpected ${answer.status}`);
    return answer;
  };
  const update = async (invoiceId: number, body: InvoiceUpdate, account: TestAccount = mine) => {
    const answer = await updateInvoice({ params: { invoice_id: invoiceId }, query: {}, body }, context(account));
    if (answer.status !== 200) throw new Error(`unexpected ${answer.status}`);
    return answer.body.invoice;
  };
  const read = async (invoiceId: number, account: TestAccount = mine) => {
    const answer = await getInvoice({ params: { invoice_id: invoiceId }, query: {}, body: undefined }, context(account));
    if (answer.status !== 200) throw new Error(`unexpected ${answer.status}`);
    return answer.body.invoice;
  };

  describe('createInvoice', () => {
    it('creates a draft with a generated number, the client name and a Location', async () => {
      const answer = await create({ description: 'Consulting' });
      const { invoice } = answer.body;
      expect(answer.headers.Location).toBe(`/api/v1/invoices/${invoice.id}`);
      expect(invoice).toMatchObject({
        client_id: mine.clientIds[0],
        client_name: `Client ${invoice.client_name.slice(7)}`,
        amount: 120.5,
        currency: 'CHF',
        status: 'draft',
        due_date: '2026-03-31',
        description: 'Consulting',
      });
      expect(invoice.invoice_number).toMatch(/^INV-\d{6}$/);
      expect(invoice.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(invoice.updated_at).toBe(invoice.created_at);
      expect(await read(invoice.id)).toEqual(invoice);
    });

    it('defaults the description to an empty string and accepts status sent', async () => {
      const { invoice } = (await create({ status: 'sent' })).body;
      expect(invoice).toMatchObject({ status: 'sent', description: '' });
    });

    it('numbers invoices per account from the account counter', async () => {
      const first = (await create({}, other)).body.invoice;
      const second = (await create({}, other)).body.invoice;
      expect([first.invoice_number, second.invoice_number]).toEqual(['INV-000001', 'INV-000002']);
    });

    it('skips a generated number already taken by hand', async () => {
      const account = await createAccount(database());
      await create({ client_id: account.clientIds[0]!, invoice_number: 'INV-000001' }, account);
      const generated = (await create({ client_id: account.clientIds[0]! }, account)).body.invoice;
      expect(generated.invoice_number).toBe('INV-000002');
    });

    it('answers 409 conflict naming invoice_number for a number used in the account, and writes nothing', async () => {
      await create({ invoice_number: 'DUP-1' });
      const before = (await searchInvoices({ params: {}, query: {}, body: {} }, context())).status === 200;
      expect(before).toBe(true);
      const error = await refusal(create({ invoice_number: 'DUP-1', amount: 1 }));
      expect(error).toMatchObject({ status: 409, code: 'conflict', details: { field: 'invoice_number' } });
      const matching = await searchInvoices(
        { params: {}, query: {}, body: { criteria: [{ field: 'invoice_number', operator: '=', value: 'DUP-1' }] } },
        context(),
      );
      expect(matching.status === 200 && matching.body.data.map((invoice) => invoice.amount)).toEqual([120.5]);
      // The same number in another account is fine.
      await expect(create({ client_id: other.clientIds[0]!, invoice_number: 'DUP-1' }, other)).resolves.toBeDefined();
    });

    it('rejects a client of another account with 400 naming client_id', async () => {
      expect(await refusal(create({ client_id: other.clientIds[0]! }))).toMatchObject({
        status: 400,
        code: 'invalid_request',
        details: { field: 'client_id' },
      });
      expect(await refusal(create({ client_id: 999_999 }))).toMatchObject({ status: 400, details: { field: 'client_id' } });
    });

    it('never hands out one number twice when creates race', async () => {
      const account = await createAccount(database());
      const results = await Promise.allSettled(Array.from({ length: 25 }, () => create({ client_id: account.clientIds[0]! }, account)));
      const { answers, errors } = partition(results);
      expect(errors).toEqual([]);
      const numbers = answers.map((answer) => answer.body.invoice.invoice_number).sort();
      expect(numbers).toEqual(Array.from({ length: 25 }, (_, index) => `INV-${String(index + 1).padStart(6, '0')}`));
    });

    it('keeps generated numbers distinct and gapless when given numbers race for the next ones', async () => {
      const account = await createAccount(database());
      const client_id = account.clientIds[0]!;
      const given = ['INV-000003', 'INV-000004', 'INV-000009', 'INV-000015'];
      // The given ones are sent first, so that generated creates meet them (PGlite runs them in order).
      const results = await Promise.allSettled([
        ...given.map((invoice_number) => create({ client_id, invoice_number }, account)),
        ...Array.from({ length: 16 }, () => create({ client_id }, account)),
      ]);
      const { answers, errors } = partition(results);
      // A given number loses only to a generated one that took it first: 409, nothing written.
      expect(errors.every((error) => error.code === 'conflict' && error.details?.field === 'invoice_number')).toBe(true);
      expect(answers).toHaveLength(16 + given.length - errors.length);
      const stored = await database()
        .db.selectFrom('invoices')
        .select('invoice_number')
        .where('account_id', '=', account.accountId)
        .orderBy('invoice_number')
        .execute();
      const expected = Array.from({ length: answers.length }, (_, index) => `INV-${String(index + 1).padStart(6, '0')}`);
      expect(stored.map((row) => row.invoice_number)).toEqual(expected);
      const { next_invoice_number } = await database()
        .db.selectFrom('accounts')
        .select('next_invoice_number')
        .where('id', '=', account.accountId)
        .executeTakeFirstOrThrow();
      // The counter moved past every number it handed out or skipped, and no further.
      expect(next_invoice_number).toBe(answers.length + 1);
    });

    it('gives the number of a create that fails back to the next one', async () => {
      const account = await createAccount(database());
      const client_id = account.clientIds[0]!;
      await create({ client_id }, account);
      // The request validator refuses a negative amount; here it reaches the table's check, after the number was taken.
      await expect(create({ client_id, amount: -1 }, account)).rejects.toMatchObject({ code: '23514' });
      expect((await create({ client_id }, account)).body.invoice.invoice_number).toBe('INV-000002');
    });

    it('formats generated numbers past six digits whole', async () => {
      const account = await createAccount(database());
      const client_id = account.clientIds[0]!;
      await database().db.updateTable('accounts').set({ next_invoice_number: 999_999 }).where('id', '=', account.accountId).execute();
      const numbers = [(await create({ client_id }, account)).body.invoice.invoice_number, (await create({ client_id }, account)).body.invoice.invoice_number];
      expect(numbers).toEqual(['INV-999999', 'INV-1000000']);
    });

    it('lets exactly one of several racing creates with the same given number win', async () => {
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => create({ invoice_number: 'RACE-1' })));
      const { answers, errors } = partition(results);
      expect(answers).toHaveLength(1);
      expect(errors).toHaveLength(9);
      expect(errors.every((error) => error.code === 'conflict' && error.details?.field === 'invoice_number')).toBe(true);
    });
  });

  describe('createInvoice with a trigger that also writes the account row on insert', () => {
    // A statement-level trigger like the one that keeps a per-account version of the invoice list:
    // the insert then updates the account row in the statement that took the number. Own database,
    // so that no other test sees the trigger.
    const triggered = useTestDatabase(engine, { name: 'ops_invoices_trigger' });

    beforeAll(async () => {
      await sql`alter table accounts add column test_invoices_version bigint not null default 0`.execute(triggered().db);
      await sql`
        create function test_bump_invoices_version() returns trigger language plpgsql as $$
        begin
          update accounts set test_invoices_version = test_invoices_version + 1 where id in (select account_id from new_rows);
          return null;
        end $$`.execute(triggered().db);
      await sql`
        create trigger test_bump_invoices_version after insert on invoices
        referencing new table as new_rows for each statement execute function test_bump_invoices_version()`.execute(triggered().db);
    });

    it('still numbers racing creates gaplessly and runs the trigger once per invoice', async () => {
      const account = await createAccount(triggered());
      const body = newInvoice({ client_id: account.clientIds[0]! }, account);
      const results = await Promise.allSettled([
        createInvoice({ params: {}, query: {}, body: { ...body, invoice_number: 'INV-000002' } }, contextFor(triggered(), account.accountId)),
        ...Array.from({ length: 12 }, () => createInvoice({ params: {}, query: {}, body }, contextFor(triggered(), account.accountId))),
      ]);
      const { answers, errors } = partition(results);
      expect(errors.every((error) => error.code === 'conflict')).toBe(true);
      const stored = await triggered()
        .db.selectFrom('invoices')
        .select('invoice_number')
        .where('account_id', '=', account.accountId)
        .orderBy('invoice_number')
        .execute();
      expect(stored.map((row) => row.invoice_number)).toEqual(
        Array.from({ length: answers.length }, (_, index) => `INV-${String(index + 1).padStart(6, '0')}`),
      );
      const { rows } = await sql<{ version: number }>`select test_invoices_version::integer as version from accounts where id = ${account.accountId}`.execute(
        triggered().db,
      );
      expect(rows[0]?.version).toBe(answers.length);
    });
  });

  describe('getInvoice', () => {
    it("answers 404 for a missing invoice and for another account's, alike", async () => {
      const theirs = (await create({ client_id: other.clientIds[0]! }, other)).body.invoice;
      const foreign = await refusal(read(theirs.id));
      const missing = await refusal(read(987_654));
      expect(foreign).toMatchObject({ status: 404, code: 'not_found' });
      expect(missing).toMatchObject({ status: 404, code: 'not_found' });
      expect(foreign.message.replace(String(theirs.id), 'N')).toBe(missing.message.replace('987654', 'N'));
    });
  });

  describe('updateInvoice', () => {
    it('changes the fields present, keeps the others and moves updated_at', async () => {
      const created = (await create({ description: 'Old' })).body.invoice;
      const updated = await update(created.id, { amount: 99.99, client_id: mine.clientIds[1]!, description: 'New' });
      expect(updated).toMatchObject({
        amount: 99.99,
        client_id: mine.clientIds[1],
        description: 'New',
        currency: 'CHF',
        due_date: '2026-03-31',
        status: 'draft',
      });
      expect(updated.client_name).not.toBe(created.client_name);
      expect(updated.updated_at > created.updated_at).toBe(true);
      expect(updated.created_at).toBe(created.created_at);
      expect(await read(created.id)).toEqual(updated);
    });

    it('does not move updated_at when nothing changes', async () => {
      const created = (await create()).body.invoice;
      const same = await update(created.id, { amount: 120.5, currency: 'CHF', description: '' });
      expect(same).toEqual(created);
      expect(await update(created.id, {})).toEqual(created);
    });

    it('follows the status transitions and refuses others with invalid_transition', async () => {
      const invoice = (await create()).body.invoice;
      expect(await refusal(update(invoice.id, { status: 'paid' }))).toMatchObject({ status: 409, code: 'invalid_transition' });
      expect((await update(invoice.id, { status: 'sent' })).status).toBe('sent');
      expect((await update(invoice.id, { status: 'overdue' })).status).toBe('overdue');
      expect((await update(invoice.id, { status: 'paid' })).status).toBe('paid');
      expect(await refusal(update(invoice.id, { status: 'cancelled' }))).toMatchObject({ code: 'invalid_transition' });
    });

    it('locks all but status and description after draft; a rejected update writes nothing', async () => {
      const invoice = (await create()).body.invoice;
      const sent = await update(invoice.id, { status: 'sent' });
      const locked = await refusal(update(invoice.id, { description: 'changed', amount: 1 }));
      expect(locked).toMatchObject({ status: 409, code: 'invoice_locked', details: { field: 'amount' } });
      expect(await read(invoice.id)).toEqual(sent);
      // The current value of a locked field is a no-op; status and description still move.
      const paid = await update(invoice.id, { amount: 120.5, currency: 'CHF', status: 'paid', description: 'Paid by card' });
      expect(paid).toMatchObject({ status: 'paid', description: 'Paid by card', amount: 120.5 });
    });

    it('reports a bad transition before the lock', async () => {
      const invoice = (await create({ status: 'sent' })).body.invoice;
      expect(await refusal(update(invoice.id, { amount: 5, status: 'draft' }))).toMatchObject({ code: 'invalid_transition' });
    });

    it('answers 409 conflict for a number already used, and 400 for a foreign client, writing nothing', async () => {
      await create({ invoice_number: 'TAKEN-1' });
      const invoice = (await create()).body.invoice;
      expect(await refusal(update(invoice.id, { invoice_number: 'TAKEN-1', description: 'x' }))).toMatchObject({
        code: 'conflict',
        details: { field: 'invoice_number' },
      });
      expect(await refusal(update(invoice.id, { client_id: other.clientIds[0]!, description: 'x' }))).toMatchObject({
        status: 400,
        details: { field: 'client_id' },
      });
      expect(await read(invoice.id)).toEqual(invoice);
    });

    it("answers 404 for another account's invoice and leaves it alone", async () => {
      const theirs = (await create({ client_id: other.clientIds[0]! }, other)).body.invoice;
      expect(await refusal(update(theirs.id, { description: 'hijacked' }))).toMatchObject({ status: 404, code: 'not_found' });
      expect(await read(theirs.id, other)).toEqual(theirs);
    });

    it('loses no acknowledged write when updates of one invoice race', async () => {
      const invoice = (await create()).body.invoice;
      const updates: InvoiceUpdate[] = [
        { amount: 1.5 },
        { currency: 'EUR' },
        { due_date: '2027-01-31' },
        { description: 'racing' },
        { invoice_number: `RACE-U-${engine}` },
      ];
      const results = await Promise.allSettled(updates.map((body) => update(invoice.id, body)));
      expect(partition(results).errors).toEqual([]);
      expect(await read(invoice.id)).toMatchObject({
        amount: 1.5,
        currency: 'EUR',
        due_date: '2027-01-31',
        description: 'racing',
        invoice_number: `RACE-U-${engine}`,
      });
    });

    it('lets exactly one of two racing final transitions win, and stores the winner', async () => {
      const invoices = await Promise.all(Array.from({ length: 5 }, async () => (await create({ status: 'sent' })).body.invoice));
      for (const invoice of invoices) {
        const results = await Promise.allSettled([update(invoice.id, { status: 'paid' }), update(invoice.id, { status: 'cancelled' })]);
        const { answers, errors } = partition(results);
        expect(answers).toHaveLength(1);
        expect(errors.map((error) => error.code)).toEqual(['invalid_transition']);
        expect((await read(invoice.id)).status).toBe(answers[0]!.status);
      }
    });
  });

  describe('searchInvoices', () => {
    it('answers a page confined to the account', async () => {
      const answer = await searchInvoices({ params: {}, query: {}, body: { limit: 1000 } }, context(other));
      expect(answer.status).toBe(200);
      if (answer.status !== 200) return;
      const ids = new Set(answer.body.data.map((invoice) => invoice.client_id));
      expect([...ids].every((clientId) => other.clientIds.includes(clientId))).toBe(true);
      expect(answer.body.pagination.total).toBe(answer.body.data.length);
    });

    it('throws 400 invalid_request with details for a body the validator did not see, and for a reversed between the schema cannot see', async () => {
      // The types refuse an operator the field lacks, as the schema does; a handler called without the
      // validator in front still refuses it.
      const likeOnClientId = { criteria: [{ field: 'client_id', operator: 'like', value: '1' }] } as unknown as { criteria: [] };
      const error = await refusal(searchInvoices({ params: {}, query: {}, body: likeOnClientId }, context()));
      expect(error).toMatchObject({ status: 400, code: 'invalid_request', details: { field: 'client_id', issue: expect.stringContaining('operator') } });
      const order = await refusal(
        searchInvoices({ params: {}, query: {}, body: { criteria: [{ field: 'amount', operator: 'between', value: [5, 1] }] } }, context()),
      );
      expect(order.details).toMatchObject({ field: 'amount' });
    });
  });
});
