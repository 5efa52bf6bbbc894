// The requests a client repeats most (a create under a generated number, an issue, each with its
// Idempotency-Key looked up first as the idempotency middleware does, and a read by id) run statement templates compiled when their modules load
// (db/statement-template.ts): such a request builds and compiles no statement with Kysely. Counted on
// Kysely's PostgreSQL compiler, which both engines' dialects use.
import { PostgresQueryCompiler } from 'kysely';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../../src/context.js';
import { createDelivery, issueDelivery } from '../../src/operations/deliveries.js';
import { findStoredAnswer } from '../../src/idempotency/index.js';
import { createInvoice, getInvoice, updateInvoice } from '../../src/operations/invoices.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';

describe.each(engines)('statements compiled once, on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'ops_compiled_once' });
  let account: TestAccount;
  let keys = 0;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 2 });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A context whose request carries an Idempotency-Key of its own, as the router would claim it. */
  const keyed = (): RequestContext => {
    keys += 1;
    const context = contextFor(database(), account.accountId);
    return {
      ...context,
      idempotency: { accountId: account.accountId, apiKey: context.caller!.apiKey, key: `compiled-once-${keys}`, fingerprint: `request-${keys}`, ttlHours: 24 },
    };
  };
  const compilesOf = async (request: () => Promise<unknown>): Promise<number> => {
    const compiles = vi.spyOn(PostgresQueryCompiler.prototype, 'compileQuery');
    await request();
    const count = compiles.mock.calls.length;
    compiles.mockRestore();
    return count;
  };

  it('a keyed create, a keyed issue and a read by id compile no statement', async () => {
    const draft = await createDelivery({ params: {}, query: {}, body: { contact_id: account.clientIds[0]! } }, contextFor(database(), account.accountId));
    if (draft.status !== 201) throw new Error(`unexpected ${draft.status}`);
    let invoiceId = 0;

    const create = await compilesOf(async () => {
      const context = keyed();
      expect(await findStoredAnswer(context.db.db, context.idempotency!)).toBeUndefined();
      const answer = await createInvoice(
        { params: {}, query: {}, body: { client_id: account.clientIds[1]!, amount: 80, currency: 'CHF', due_date: '2026-12-31' } },
        context,
      );
      expect(await findStoredAnswer(context.db.db, context.idempotency!)).toMatchObject({ status: 201, fingerprint: context.idempotency!.fingerprint });
      expect(answer.status).toBe(201);
      invoiceId = answer.status === 201 ? answer.body.invoice.id : 0;
    });
    const issue = await compilesOf(async () => {
      const context = keyed();
      expect(await findStoredAnswer(context.db.db, context.idempotency!)).toBeUndefined();
      const answer = await issueDelivery(
        {
          params: {},
          query: {},
          body: { delivery_id: draft.body.delivery.id, contact_id: account.clientIds[1]!, items: [{ item_id: 7, quantity: 2, unit_price: 9.5 }] },
        },
        context,
      );
      expect(answer.status).toBe(200);
      expect(answer.status === 200 && answer.body).toMatchObject({ status: 'issued', contact_id: account.clientIds[1], total_amount: 19 });
    });
    const read = await compilesOf(async () => {
      const answer = await getInvoice({ params: { invoice_id: invoiceId }, query: {}, body: undefined }, contextFor(database(), account.accountId));
      expect(answer.status).toBe(200);
    });

    expect({ create, issue, read }).toEqual({ create: 0, issue: 0, read: 0 });
  });

  it('counts the compiles of a request that builds its statements: an update of chosen fields', async () => {
    const created = await createInvoice(
      { params: {}, query: {}, body: { client_id: account.clientIds[0]!, amount: 10, currency: 'CHF', due_date: '2026-12-31' } },
      contextFor(database(), account.accountId),
    );
    if (created.status !== 201) throw new Error(`unexpected ${created.status}`);
    const update = await compilesOf(async () => {
      const answer = await updateInvoice(
        { params: { invoice_id: created.body.invoice.id }, query: {}, body: { amount: 11 } },
        contextFor(database(), account.accountId),
      );
      expect(answer.status).toBe(200);
    });
    expect(update).toBeGreaterThan(0);
  });
});
