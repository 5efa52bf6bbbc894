// Every write of an account's invoices takes the account's row before any invoice (lockAccountForInvoiceWrite):
// the version triggers update that row at the end of each invoice statement, and a generated number's
// counter lives in it, so a write that touched an invoice first and the account second could wait, in
// a cycle, for a create that holds the account and waits for that invoice (PostgreSQL: deadlock
// detected). Each test holds the account's lock in another transaction, lets a write start, and
// checks from a third connection that the write has touched no invoice while it waits.
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseSchema } from '../../src/db/schema.js';
import { createInvoice, updateInvoice } from '../../src/operations/invoices.js';
import { useTestDatabase } from '../support/databases.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';

class ProbeDone extends Error {}

describe('invoice writes lock the account before the invoice (postgres)', () => {
  const database = useTestDatabase('postgres', { name: 'ops_invoice_lock_order' });
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 1 });
  });

  /** Holds the account's row lock in its own transaction until the returned function is called. */
  async function holdAccount(): Promise<() => Promise<void>> {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const done = database()
      .db.transaction()
      .execute(async (trx) => {
        await sql`select id from accounts where id = ${account.accountId} for no key update`.execute(trx);
        locked();
        await released;
      });
    await isLocked;
    return async () => {
      release();
      await done;
    };
  }

  /** Waits until some backend of this database waits for a lock (the write under test). */
  async function someoneWaits(): Promise<void> {
    await expect
      .poll(async () => {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(database().db);
        return rows[0]?.waiting ?? 0;
      })
      .toBeGreaterThan(0);
  }

  /** Runs `probe` in a transaction that gives up a lock after 300 ms and rolls back; true when it had to give up. */
  async function blockedBy(probe: (trx: Kysely<DatabaseSchema>) => Promise<unknown>): Promise<boolean> {
    try {
      await database()
        .db.transaction()
        .execute(async (trx) => {
          await sql`set local lock_timeout = '300ms'`.execute(trx);
          await probe(trx);
          throw new ProbeDone();
        });
    } catch (error) {
      if (error instanceof ProbeDone) return false;
      if ((error as { code?: string }).code === '55P03') return true;
      throw error;
    }
    throw new Error('unreachable: the probe always rolls back');
  }

  it('a create with a given number inserts nothing while it waits for the account', async () => {
    const release = await holdAccount();
    const creating = createInvoice(
      {
        params: {},
        query: {},
        body: { client_id: account.clientIds[0]!, amount: 10, currency: 'CHF', due_date: '2026-03-31', invoice_number: 'INV-LOCKED-1' },
      },
      contextFor(database(), account.accountId),
    );
    await someoneWaits();
    // Without triggers (replica role), so that the probe itself needs no account lock: an insert of
    // the same number waits only if the create already holds that number's index entry.
    const probeBlocked = await blockedBy(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`
        insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date, description)
        values (${account.accountId}, 'INV-LOCKED-1', ${account.clientIds[0]!}, 'probe', 1, 'CHF', 'draft', '2026-03-31', '')
        on conflict do nothing`.execute(trx);
    });
    await release();
    expect((await creating).status).toBe(201);
    expect(probeBlocked).toBe(false);
  });

  it('an update locks no invoice while it waits for the account', async () => {
    const created = await createInvoice(
      { params: {}, query: {}, body: { client_id: account.clientIds[0]!, amount: 10, currency: 'CHF', due_date: '2026-03-31' } },
      contextFor(database(), account.accountId),
    );
    if (created.status !== 201) throw new Error(`unexpected ${created.status}`);
    const invoiceId = created.body.invoice.id;
    const release = await holdAccount();
    const updating = updateInvoice({ params: { invoice_id: invoiceId }, query: {}, body: { amount: 11 } }, contextFor(database(), account.accountId));
    await someoneWaits();
    const probeBlocked = await blockedBy((trx) => sql`select id from invoices where id = ${invoiceId} for update`.execute(trx));
    await release();
    expect((await updating).status).toBe(200);
    expect(probeBlocked).toBe(false);
  });
});
