// The invoice counts of migration 0007 stay exact whoever writes invoices: a property test runs random
// batches of writes at once (the service's creates and updates of status and currency, transactions
// that roll back, savepoints rolled back, raw INSERT/UPDATE/DELETE over several accounts, invoices
// moved between accounts) and then compares every count with count(*) of its group. On PostgreSQL the
// batch runs on several connections at once; PGlite, one session, interleaves it.
// INVOICE_COUNTS_RUNS=<n> runs more batches than the few that CI affords.
import fc from 'fast-check';
import { Migrator, sql, type Kysely, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { InvoiceStatus } from '@invoice-api/contract';
import { lockAccountForInvoiceWrite } from '../../src/db/accounts.js';
import { compareInvoiceCounts, repairInvoiceCounts } from '../../src/db/invoice-counts.js';
import { migrations } from '../../src/db/migrate.js';
import type { DatabaseSchema } from '../../src/db/schema.js';
import { ApiError } from '../../src/errors.js';
import { createInvoice, updateInvoice } from '../../src/operations/invoices.js';
import { engines, useTestDatabase, type Engine } from '../support/databases.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';

const runs = Number.parseInt(process.env.INVOICE_COUNTS_RUNS ?? '', 10) || 8;
/** Seconds per batch on a busy machine: a longer run gets time in proportion. */
const propertyTimeoutMs = Math.max(120_000, runs * 5_000);
const accountCount = 3;
const statuses: readonly InvoiceStatus[] = ['draft', 'sent', 'paid', 'overdue', 'cancelled'];
const currencies = ['CHF', 'EUR', 'USD'] as const;
type Currency = (typeof currencies)[number];

/** Invoices chosen by `id % modulus = remainder`: some of them, a different some each time. */
interface Slice {
  modulus: number;
  remainder: number;
}

type Command =
  | { kind: 'create'; account: number; status: 'draft' | 'sent'; currency: Currency }
  | { kind: 'change'; account: number; pick: number; status: InvoiceStatus | undefined; currency: Currency | undefined }
  | { kind: 'rolled back'; account: number; status: InvoiceStatus; currency: Currency }
  | { kind: 'savepoint rolled back'; account: number; status: InvoiceStatus; currency: Currency }
  | { kind: 'raw insert'; accounts: number[]; rows: number; status: InvoiceStatus; currency: Currency }
  | { kind: 'raw update'; accounts: number[]; slice: Slice; status: InvoiceStatus | undefined; currency: Currency }
  | { kind: 'raw delete'; accounts: number[]; slice: Slice }
  | { kind: 'raw move'; from: number; to: number; slice: Slice };

const account = fc.nat({ max: accountCount - 1 });
const someAccounts = fc.uniqueArray(account, { minLength: 1, maxLength: accountCount });
const status = fc.constantFrom(...statuses);
const currency = fc.constantFrom(...currencies);
const slice = fc.record({ modulus: fc.integer({ min: 2, max: 5 }), remainder: fc.nat({ max: 4 }) });

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), account, status: fc.constantFrom('draft' as const, 'sent' as const), currency }),
  fc.record({
    kind: fc.constant('change' as const),
    account,
    pick: fc.nat(),
    status: fc.option(status, { nil: undefined }),
    currency: fc.option(currency, { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('rolled back' as const), account, status, currency }),
  fc.record({ kind: fc.constant('savepoint rolled back' as const), account, status, currency }),
  fc.record({ kind: fc.constant('raw insert' as const), accounts: someAccounts, rows: fc.integer({ min: 1, max: 20 }), status, currency }),
  fc.record({ kind: fc.constant('raw update' as const), accounts: someAccounts, slice, status: fc.option(status, { nil: undefined }), currency }),
  fc.record({ kind: fc.constant('raw delete' as const), accounts: someAccounts, slice }),
  fc.record({ kind: fc.constant('raw move' as const), from: account, to: account, slice }),
);

/** Thrown inside a transaction to roll it back. */
class RollBack extends Error {}

/**
 * What a concurrent write may meet and still be a correct outcome: the domain's refusals (an invalid
 * transition, a locked field, an invoice deleted by another write) and PostgreSQL's deadlock victim
 * (a raw statement that locks invoices before their account, against a service write that locks the
 * account first; rolled back whole).
 */
function isExpectedRefusal(error: unknown): boolean {
  if (error instanceof RollBack) return true;
  if (error instanceof ApiError) return error.status === 404 || error.status === 409;
  return (error as { code?: unknown }).code === '40P01';
}

let rawBatch = 0;

/** An invoice_number no other write uses, with `id` of generate_series appended in SQL. */
function rawNumberPrefix(): string {
  rawBatch += 1;
  return `RAW-${process.pid}-${rawBatch}-`;
}

function insertRaw(db: Kysely<DatabaseSchema>, accountIds: number[], rows: number, status: InvoiceStatus, currency: string) {
  return sql`
    insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date)
    select a.id, ${rawNumberPrefix()} || a.id || '-' || n, (select min(c.id) from company_clients c where c.account_id = a.id), 'Raw client', 1, ${currency}, ${status}, date '2026-06-30'
    from accounts a cross join generate_series(1, ${rows}) n
    where a.id = any(cast(${accountIds} as bigint[]))`.execute(db);
}

function sliceOf(slice: Slice) {
  return sql<SqlBool>`id % ${slice.modulus} = ${slice.remainder % slice.modulus}`;
}

describe.each(engines)('invoice counts on %s', (engine: Engine) => {
  const database = useTestDatabase(engine, { name: 'invoice_counts', poolSize: 8 });
  let accounts: TestAccount[] | undefined;

  async function testAccounts(): Promise<TestAccount[]> {
    accounts ??= await Promise.all(Array.from({ length: accountCount }, () => createAccount(database(), { clients: 1 })));
    return accounts;
  }

  async function differences() {
    return (await compareInvoiceCounts(database().db)).differences;
  }

  async function run(command: Command): Promise<void> {
    const all = await testAccounts();
    const db = database().db;
    const idsOf = (indexes: number[]) => indexes.map((index) => all[index]!.accountId);
    switch (command.kind) {
      case 'create': {
        const { accountId, clientIds } = all[command.account]!;
        const body = { client_id: clientIds[0]!, amount: 10, currency: command.currency, due_date: '2026-03-31', status: command.status };
        const answer = await createInvoice({ params: {}, query: {}, body }, contextFor(database(), accountId));
        expect(answer.status).toBe(201);
        return;
      }
      case 'change': {
        const { accountId } = all[command.account]!;
        const picked = await db
          .selectFrom('invoices')
          .select('id')
          .where('account_id', '=', accountId)
          .orderBy(sql`(id * 7919 + ${command.pick}) % 1009`)
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (picked === undefined) return;
        const body = {
          ...(command.status === undefined ? {} : { status: command.status }),
          ...(command.currency === undefined ? {} : { currency: command.currency }),
        };
        await updateInvoice({ params: { invoice_id: picked.id }, query: {}, body }, contextFor(database(), accountId));
        return;
      }
      case 'rolled back':
        await db.transaction().execute(async (trx) => {
          const { accountId } = all[command.account]!;
          await lockAccountForInvoiceWrite(trx, accountId);
          await insertRaw(trx, [accountId], 3, command.status, command.currency);
          await trx.updateTable('invoices').set({ status: command.status, currency: command.currency }).where('account_id', '=', accountId).execute();
          throw new RollBack();
        });
        return;
      case 'savepoint rolled back':
        // Only the savepoint's writes are undone: the insert after it stays.
        await db.transaction().execute(async (trx) => {
          const { accountId } = all[command.account]!;
          await lockAccountForInvoiceWrite(trx, accountId);
          await sql`savepoint undone`.execute(trx);
          await trx
            .deleteFrom('invoices')
            .where('account_id', '=', accountId)
            .where(sliceOf({ modulus: 2, remainder: 0 }))
            .execute();
          await insertRaw(trx, [accountId], 2, command.status, command.currency);
          await sql`rollback to savepoint undone`.execute(trx);
          await insertRaw(trx, [accountId], 1, command.status, command.currency);
        });
        return;
      case 'raw insert':
        await insertRaw(db, idsOf(command.accounts), command.rows, command.status, command.currency);
        return;
      case 'raw update':
        await sql`
          update invoices set status = coalesce(${command.status ?? null}, status), currency = ${command.currency}
          where account_id = any(cast(${idsOf(command.accounts)} as bigint[])) and ${sliceOf(command.slice)}`.execute(db);
        return;
      case 'raw delete':
        await sql`delete from invoices where account_id = any(cast(${idsOf(command.accounts)} as bigint[])) and ${sliceOf(command.slice)}`.execute(db);
        return;
      case 'raw move': {
        const [from, to] = idsOf([command.from, command.to]);
        // The invoice's own id keeps the new number unique in any account.
        await sql`
          update invoices set account_id = ${to}, client_id = (select min(c.id) from company_clients c where c.account_id = ${to}), invoice_number = 'MOVED-' || id
          where account_id = ${from} and ${sliceOf(command.slice)}`.execute(db);
        return;
      }
    }
  }

  it(
    'after random concurrent writes by the service and by raw SQL, every count equals count(*) of its group',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), async (batch) => {
          // Every batch starts from exact counts (a no-op unless an earlier one failed), so that a
          // shrunk counterexample is the batch that broke them, not one that met the damage.
          await repairInvoiceCounts(database().db);
          const outcomes = await Promise.allSettled(batch.map(run));
          for (const outcome of outcomes) {
            if (outcome.status === 'rejected' && !isExpectedRefusal(outcome.reason)) throw outcome.reason;
          }
          expect(await differences()).toEqual([]);
        }),
        { numRuns: runs },
      );
      // The batches wrote something in every account, not only refusals.
      const { groups } = await compareInvoiceCounts(database().db);
      expect(groups).toBeGreaterThan(accountCount);
    },
    propertyTimeoutMs,
  );

  it('an update that changes no status, currency or account writes no count', async () => {
    const [first] = await testAccounts();
    await insertRaw(database().db, [first!.accountId], 2, 'draft', 'CHF');
    const versionsOf = async () =>
      (
        await sql<{
          row_version: string;
        }>`select xmin::text as row_version from invoice_counts where account_id = ${first!.accountId} order by status, currency`.execute(database().db)
      ).rows;
    const before = await versionsOf();
    await database().db.updateTable('invoices').set({ amount: 99, description: 'changed' }).where('account_id', '=', first!.accountId).execute();
    expect(await versionsOf()).toEqual(before);
    expect(await differences()).toEqual([]);
  });

  it('a count made wrong by hand is reported, and the repair writes the counted number back', async () => {
    const [first] = await testAccounts();
    await insertRaw(database().db, [first!.accountId], 3, 'overdue', 'EUR');
    const counted = await database()
      .db.selectFrom('invoices')
      .select((eb) => eb.fn.countAll<number>().as('invoices'))
      .where('account_id', '=', first!.accountId)
      .where('status', '=', 'overdue')
      .where('currency', '=', 'EUR')
      .executeTakeFirstOrThrow();
    await sql`update invoice_counts set invoices = invoices + 5 where account_id = ${first!.accountId} and status = 'overdue' and currency = 'EUR'`.execute(
      database().db,
    );
    const wrong = { accountId: first!.accountId, status: 'overdue', currency: 'EUR', kept: counted.invoices + 5, counted: counted.invoices };
    expect(await differences()).toEqual([wrong]);
    expect((await repairInvoiceCounts(database().db)).differences).toEqual([wrong]);
    expect(await differences()).toEqual([]);
  });

  // Two sessions at once: PGlite has one, so this runs on PostgreSQL only.
  if (engine === 'postgres') {
    it('a raw write waits for its account before it touches a count, so counts add no lock of their own', async () => {
      const [first] = await testAccounts();
      const db = database().db;
      // The group the write below adds to has a count row already, which it would lock when it upserts.
      await insertRaw(db, [first!.accountId], 1, 'cancelled', 'CHF');
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked: () => void = () => undefined;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // Another writer of the account, as the service holds it: from its first statement to its commit.
      const holder = db.transaction().execute(async (trx) => {
        await lockAccountForInvoiceWrite(trx, first!.accountId);
        locked();
        await released;
      });
      await isLocked;
      const writing = insertRaw(db, [first!.accountId], 2, 'cancelled', 'CHF');
      await expect
        .poll(async () => {
          const { rows } = await sql<{ waiting: number }>`
            select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
          return rows[0]?.waiting ?? 0;
        })
        .toBeGreaterThan(0);
      // The waiting insert holds no count row: every count of the account can still be locked at once.
      await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '300ms'`.execute(trx);
        await sql`select invoices from invoice_counts where account_id = ${first!.accountId} for update`.execute(trx);
      });
      release();
      await holder;
      await writing;
      expect(await differences()).toEqual([]);
    });
  }

  it('TRUNCATE of invoices leaves no count behind', async () => {
    // CASCADE: the attachments reference the invoices (migration 0008) and go with them.
    await sql`truncate invoices cascade`.execute(database().db);
    expect(await differences()).toEqual([]);
    const { rows } = await sql<{ kept: number }>`select count(*) as kept from invoice_counts`.execute(database().db);
    expect(rows[0]?.kept).toBe(0);
  });

  it('the migration counts the invoices that existed before it (down to 0006, write, up again)', async () => {
    const db = database().db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) } });
    expect((await migrator.migrateTo('0006_account_invoices_version')).error).toBeUndefined();
    // Created side by side: their ids come in no particular order, the counts below are read by id.
    const [first, second] = [...(await testAccounts())].sort((a, b) => a.accountId - b.accountId);
    // Written while no trigger keeps counts.
    await insertRaw(db, [first!.accountId, second!.accountId], 4, 'sent', 'CHF');
    await insertRaw(db, [second!.accountId], 2, 'paid', 'USD');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const kept = await db
      .selectFrom('invoice_counts')
      .select(['account_id', 'status', 'currency', 'invoices'])
      .orderBy('account_id')
      .orderBy('status')
      .execute();
    expect(kept).toEqual([
      { account_id: first!.accountId, status: 'sent', currency: 'CHF', invoices: 4 },
      { account_id: second!.accountId, status: 'paid', currency: 'USD', invoices: 2 },
      { account_id: second!.accountId, status: 'sent', currency: 'CHF', invoices: 4 },
    ]);
    // And the triggers keep them from there.
    await insertRaw(db, [first!.accountId], 1, 'sent', 'CHF');
    expect(await differences()).toEqual([]);
  });
});
