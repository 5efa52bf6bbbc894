// The exact total of a page by cursor: carried in the cursor with the account's invoices_version read
// in the same statement, and counted again only when that version moved (migration 0006's triggers).
// Whether the count ran is read from EXPLAIN ANALYZE of the very statement the service runs (the
// count's InitPlan "never executed"), never from timing; totals are compared with a fresh count.
import { createHash } from 'node:crypto';
import type { InvoiceSearchRequest } from '@invoice-api/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { createInvoice, updateInvoice } from '../../src/operations/invoices.js';
import { encodeCursor, searchDigest } from '../../src/search/cursor.js';
import { parseSearchRequest, searchInvoices, type SearchPage } from '../../src/search/index.js';
import { searchStatements } from '../../src/search/query.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { explainPlan, planNodes } from '../support/explain.js';
import { contextFor, createAccount, type TestAccount } from '../support/fixtures.js';

const rowCount = 30;
const pageSize = 4;
/**
 * Every search here: sent invoices, oldest first; updates move invoices out of it by their status. The
 * criterion on amount (every invoice here has 10) keeps it a counted search: on status alone its total
 * would be a sum of kept counts (search/total-plan.ts), which never needs the cursor's.
 */
const body = {
  limit: pageSize,
  order_by: 'id',
  order_direction: 'asc',
  criteria: [
    { field: 'status', operator: '=', value: 'sent' },
    { field: 'amount', operator: '>=', value: 0 },
  ],
} satisfies InvoiceSearchRequest;

describe.each(engines)('the total of a page by cursor on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_cursor_total' });
  let other: TestAccount;

  beforeAll(async () => {
    other = await createAccount(database());
  });

  async function create(account: TestAccount): Promise<number> {
    const answer = await createInvoice(
      { params: {}, query: {}, body: { client_id: account.clientIds[0]!, amount: 10, currency: 'CHF', due_date: '2026-03-31', status: 'sent' } },
      contextFor(database(), account.accountId),
    );
    if (answer.status !== 201) throw new Error(`create answered ${answer.status}`);
    return answer.body.invoice.id;
  }

  async function markPaid(account: TestAccount, invoiceId: number): Promise<void> {
    const answer = await updateInvoice({ params: { invoice_id: invoiceId }, query: {}, body: { status: 'paid' } }, contextFor(database(), account.accountId));
    if (answer.status !== 200) throw new Error(`update answered ${answer.status}`);
  }

  /** A fresh account with `rowCount` sent invoices, so that each test starts from a known total. */
  async function accountWithInvoices(): Promise<{ account: TestAccount; ids: number[] }> {
    const account = await createAccount(database());
    const ids: number[] = [];
    for (let index = 0; index < rowCount; index += 1) ids.push(await create(account));
    return { account, ids };
  }

  function search(account: TestAccount, cursor?: string): Promise<SearchPage> {
    return searchInvoices(database(), account.accountId, parseSearchRequest({ ...body, ...(cursor === undefined ? {} : { cursor }) }));
  }

  async function countNow(account: TestAccount): Promise<number> {
    const row = await database()
      .db.selectFrom('invoices')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('account_id', '=', account.accountId)
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    return row.total;
  }

  /**
   * How often the count of the search's total ran: EXPLAIN ANALYZE of the service's own statements,
   * the page with its total (what a page with rows runs) and the total alone (a page without rows),
   * which must agree.
   */
  async function countRuns(account: TestAccount, cursor: string): Promise<number> {
    const statements = searchStatements(account.accountId, parseSearchRequest({ ...body, cursor }));
    const runs: number[] = [];
    for (const statement of [statements.pageAndTotal, statements.total]) {
      const plan = await explainPlan(database(), statement, { analyze: true });
      const aggregates = planNodes(plan).filter((node) => node['Node Type'] === 'Aggregate');
      // Each statement holds one aggregate, the count; a count that is never executed has 0 loops.
      expect(aggregates).toHaveLength(1);
      const loops = aggregates[0]!['Actual Loops'];
      if (loops === undefined) throw new Error('EXPLAIN ANALYZE gave the count no loop count.');
      runs.push(loops);
    }
    expect(runs[0], 'the page with its total and the total alone').toBe(runs[1]);
    return runs[0]!;
  }

  it('(a) nothing changed: every page answers the exact total and the count is skipped', async () => {
    const { account } = await accountWithInvoices();
    let page = await search(account);
    const pages = [page];
    while (page.pagination.next_cursor !== undefined) {
      expect(await countRuns(account, page.pagination.next_cursor)).toBe(0);
      page = await search(account, page.pagination.next_cursor);
      pages.push(page);
    }
    expect(pages).toHaveLength(Math.ceil(rowCount / pageSize));
    expect(pages.map((each) => each.pagination.total)).toEqual(pages.map(() => rowCount));
    expect(pages.flatMap((each) => each.data)).toHaveLength(rowCount);
  });

  it('(a) the answered total is the one the cursor carries while the version is unchanged (no count ran)', async () => {
    const { account } = await accountWithInvoices();
    const { invoices_version: version } = await database()
      .db.selectFrom('accounts')
      .select('invoices_version')
      .where('id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    const digest = searchDigest({ accountId: account.accountId, orderBy: 'id', direction: 'asc', criteria: parseSearchRequest(body).criteria });
    const first = await search(account);
    const last = first.data.at(-1)!;
    // A total no count could give: answered as is, so the statement did not count.
    const carried = encodeCursor({ sortValue: last.id, id: last.id, position: pageSize, total: 777, invoicesVersion: version }, digest);
    expect((await search(account, carried)).pagination.total).toBe(777);
    // With a version the account no longer has, the same cursor is counted afresh.
    const stale = encodeCursor({ sortValue: last.id, id: last.id, position: pageSize, total: 777, invoicesVersion: version + 1 }, digest);
    expect((await search(account, stale)).pagination.total).toBe(rowCount);
  });

  it('(b) an invoice created between pages: the next page counts it (total + 1), and the page after skips the count again', async () => {
    const { account } = await accountWithInvoices();
    const first = await search(account);
    expect(first.pagination.total).toBe(rowCount);
    await create(account);
    expect(await countRuns(account, first.pagination.next_cursor!)).toBe(1);
    const second = await search(account, first.pagination.next_cursor);
    expect(second.pagination.total).toBe(rowCount + 1);
    expect(second.pagination.total).toBe(await countNow(account));
    // The second page's cursor carries the new total and version.
    expect(await countRuns(account, second.pagination.next_cursor!)).toBe(0);
    expect((await search(account, second.pagination.next_cursor)).pagination.total).toBe(rowCount + 1);
  });

  it('(c) an update that moves an invoice out of the criteria: the next page answers total - 1', async () => {
    const { account, ids } = await accountWithInvoices();
    const first = await search(account);
    await markPaid(account, ids.at(-1)!);
    const second = await search(account, first.pagination.next_cursor);
    expect(second.pagination.total).toBe(rowCount - 1);
    expect(second.pagination.total).toBe(await countNow(account));
    // has_more still says whether a matching row follows the page: the paid one no longer does.
    const rest = await searchInvoices(database(), account.accountId, parseSearchRequest({ ...body, limit: 1000, cursor: second.pagination.next_cursor }));
    expect(rest.data.map((invoice) => invoice.id)).toEqual(ids.slice(2 * pageSize, -1));
    expect(rest.pagination).toMatchObject({ total: rowCount - 1, has_more: false });
  });

  it('(d) a write in another account does not force a recount', async () => {
    const { account } = await accountWithInvoices();
    const first = await search(account);
    const elsewhere = await create(other);
    await markPaid(other, elsewhere);
    expect(await countRuns(account, first.pagination.next_cursor!)).toBe(0);
    expect((await search(account, first.pagination.next_cursor)).pagination.total).toBe(rowCount);
    // The other account's own cursor does count again after its writes.
    await create(other);
    await create(other);
    const otherFirst = await searchInvoices(database(), other.accountId, parseSearchRequest({ ...body, limit: 1, order_by: 'id' }));
    await create(other);
    const otherNext = await searchInvoices(database(), other.accountId, parseSearchRequest({ ...body, limit: 1, cursor: otherFirst.pagination.next_cursor }));
    expect(otherNext.pagination.total).toBe(otherFirst.pagination.total + 1);
  });

  it('a write that rolls back leaves the version, and so the skipped count, alone', async () => {
    const { account } = await accountWithInvoices();
    const first = await search(account);
    await expect(
      database()
        .db.transaction()
        .execute(async (trx) => {
          await trx.updateTable('invoices').set({ status: 'paid' }).where('account_id', '=', account.accountId).execute();
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(await countRuns(account, first.pagination.next_cursor!)).toBe(0);
    expect((await search(account, first.pagination.next_cursor)).pagination.total).toBe(rowCount);
  });

  // Two sessions at once: PGlite has one, so this runs on PostgreSQL only.
  if (engine === 'postgres') {
    it('a write not yet committed is not counted, and is counted once committed (one snapshot for total and version)', async () => {
      const { account } = await accountWithInvoices();
      const first = await search(account);
      let beforeCommit: SearchPage | undefined;
      await database()
        .db.transaction()
        .execute(async (trx) => {
          await trx.updateTable('invoices').set({ status: 'paid' }).where('account_id', '=', account.accountId).where('id', '=', first.data[0]!.id).execute();
          // Another pool connection: it sees neither the update nor its version bump.
          beforeCommit = await search(account, first.pagination.next_cursor);
        });
      expect(beforeCommit!.pagination.total).toBe(rowCount);
      expect((await search(account, first.pagination.next_cursor)).pagination.total).toBe(rowCount - 1);
    });
  }

  async function cursorProblem(account: TestAccount, cursor: string): Promise<{ field: string; issue: string } | undefined> {
    try {
      await search(account, cursor);
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      return error.details as { field: string; issue: string };
    }
  }

  /** The cursor's payload as JSON, and a cursor of `payload` with a checksum made the way cursor.ts makes it. */
  const payloadOf = (cursor: string): unknown[] => JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8')) as unknown[];
  const signed = (payload: unknown[]): string => {
    const text = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${text}.${createHash('sha256').update(text).digest('base64url').slice(0, 16)}`;
  };

  it('(e) a cursor of the previous layout (version 1, no total) is a 400 naming cursor', async () => {
    const { account } = await accountWithInvoices();
    const cursor = (await search(account)).pagination.next_cursor!;
    const [, sortValue, id, position, , , digest] = payloadOf(cursor);
    // The checksum is valid: only the layout's version refuses it.
    expect(await cursorProblem(account, signed([1, sortValue, id, position, digest]))).toEqual({
      field: 'cursor',
      issue: expect.stringContaining('malformed or altered'),
    });
    expect(await cursorProblem(account, signed(payloadOf(cursor)))).toBeUndefined();
  });

  it('(e) a total or version altered in the payload (checksum kept) is a 400 naming cursor', async () => {
    const { account } = await accountWithInvoices();
    const cursor = (await search(account)).pagination.next_cursor!;
    const checksum = cursor.split('.')[1]!;
    for (const index of [4, 5]) {
      const payload = payloadOf(cursor);
      payload[index] = (payload[index] as number) + 1;
      const altered = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${checksum}`;
      expect(await cursorProblem(account, altered)).toEqual({ field: 'cursor', issue: expect.stringContaining('malformed or altered') });
    }
    for (const value of [-1, 1.5, '30', null]) {
      const payload = payloadOf(cursor);
      payload[4] = value;
      expect(await cursorProblem(account, signed(payload)), JSON.stringify(value)).toEqual({ field: 'cursor', issue: expect.stringContaining('malformed') });
    }
  });
});
