// A search whose criteria select whole (status, currency) groups answers its total as a sum of the
// kept invoice counts (migration 0007, search/total-plan.ts): exact on every page, first or by cursor,
// after writes between pages too, and without reading a single invoice for it. The plan is read from
// the EXPLAIN of the very statement the service runs; totals are compared with a filter of the rows.
import type { InvoiceSearchRequest, InvoiceStatus } from '@invoice-api/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSearchRequest, searchInvoices } from '../../src/search/index.js';
import { searchStatements } from '../../src/search/query.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { explainPlan, planNodes } from '../support/explain.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';

type Criteria = NonNullable<InvoiceSearchRequest['criteria']>;

const statuses: readonly InvoiceStatus[] = ['draft', 'sent', 'paid', 'overdue', 'cancelled'];
const currencies = ['CHF', 'EUR', 'USD'];

/** Searches that select whole groups, each with the filter that says which invoices it matches. */
const summedSearches: Array<{ criteria: Criteria; matches: (row: { status: string; currency: string }) => boolean }> = [
  { criteria: [], matches: () => true },
  { criteria: [{ field: 'status', operator: '=', value: 'paid' }], matches: (row) => row.status === 'paid' },
  { criteria: [{ field: 'status', operator: '!=', value: 'paid' }], matches: (row) => row.status !== 'paid' },
  { criteria: [{ field: 'status', operator: 'in', value: ['sent', 'overdue', 'sent'] }], matches: (row) => ['sent', 'overdue'].includes(row.status) },
  { criteria: [{ field: 'currency', operator: '=', value: 'EUR' }], matches: (row) => row.currency === 'EUR' },
  { criteria: [{ field: 'currency', operator: 'in', value: ['CHF', 'XYZ'] }], matches: (row) => row.currency === 'CHF' },
  {
    criteria: [
      { field: 'status', operator: 'in', value: ['draft', 'sent'] },
      { field: 'currency', operator: '!=', value: 'CHF' },
    ],
    matches: (row) => ['draft', 'sent'].includes(row.status) && row.currency !== 'CHF',
  },
  {
    criteria: [
      { field: 'status', operator: 'in', value: ['draft'] },
      { field: 'status', operator: 'in', value: ['paid'] },
    ],
    matches: () => false,
  },
];

describe.each(engines)('totals as sums of kept counts on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_kept_counts' });
  let account: TestAccount;

  /** `rows` invoices spread over every status and currency. */
  async function insertInvoices(into: TestAccount, rows: number, offset = 0): Promise<void> {
    await database()
      .db.insertInto('invoices')
      .values(
        Array.from({ length: rows }, (_, index) => ({
          account_id: into.accountId,
          invoice_number: `KEPT-${offset + index}`,
          client_id: into.clientIds[0]!,
          client_name: 'Client',
          amount: 5,
          currency: currencies[(offset + index) % currencies.length]!,
          status: statuses[(offset + index) % statuses.length]!,
          due_date: '2026-05-31',
          description: '',
        })),
      )
      .execute();
  }

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 1 });
    await insertInvoices(account, 47);
    // Another account's invoices are in no total of this one.
    await insertInvoices(await createAccount(database(), { clients: 1 }), 13);
  });

  async function expectedTotal(matches: (row: { status: string; currency: string }) => boolean): Promise<number> {
    const rows = await database().db.selectFrom('invoices').select(['status', 'currency']).where('account_id', '=', account.accountId).execute();
    return rows.filter(matches).length;
  }

  /** The tables the total statement of `body` reads, from its EXPLAIN. */
  async function tablesReadForTotal(body: InvoiceSearchRequest): Promise<string[]> {
    const statement = searchStatements(account.accountId, parseSearchRequest(body)).total;
    const plan = await explainPlan(database(), statement, { analyze: false });
    return [...new Set(planNodes(plan).flatMap((node) => node['Relation Name'] ?? []))].sort();
  }

  it('answers the exact total of every page, first and by cursor, with a write between pages', async () => {
    for (const { criteria, matches } of summedSearches) {
      const body = { criteria, limit: 4, order_by: 'id', order_direction: 'asc' } satisfies InvoiceSearchRequest;
      let page = await searchInvoices(database(), account.accountId, parseSearchRequest(body));
      expect(page.pagination.total, JSON.stringify(criteria)).toBe(await expectedTotal(matches));
      let pages = 1;
      while (page.pagination.next_cursor !== undefined && pages < 4) {
        // A write between pages: the next page's total includes it (its cursor's total is not reused).
        await insertInvoices(account, 3, 1_000 + pages * 10 + summedSearches.findIndex((search) => search.criteria === criteria) * 100);
        page = await searchInvoices(database(), account.accountId, parseSearchRequest({ ...body, cursor: page.pagination.next_cursor }));
        expect(page.pagination.total, `${JSON.stringify(criteria)} page ${pages + 1}`).toBe(await expectedTotal(matches));
        pages += 1;
      }
    }
  });

  it('reads only the kept counts (and the account) for such a total, never the invoices', async () => {
    for (const { criteria } of summedSearches) {
      expect(await tablesReadForTotal({ criteria }), JSON.stringify(criteria)).toEqual(['accounts', 'invoice_counts']);
    }
    // A search that asks for more than whole groups still counts the invoices.
    expect(
      await tablesReadForTotal({
        criteria: [
          { field: 'status', operator: '=', value: 'paid' },
          { field: 'amount', operator: '>', value: 1 },
        ],
      }),
    ).toContain('invoices');
  });

  it('a write rolled back is in no total', async () => {
    const before = await searchInvoices(database(), account.accountId, parseSearchRequest({}));
    await expect(
      database()
        .db.transaction()
        .execute(async (trx) => {
          await sql`update invoices set status = 'cancelled' where account_id = ${account.accountId}`.execute(trx);
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    const after = await searchInvoices(
      database(),
      account.accountId,
      parseSearchRequest({ criteria: [{ field: 'status', operator: '!=', value: 'cancelled' }] }),
    );
    expect(after.pagination.total).toBe(await expectedTotal((row) => row.status !== 'cancelled'));
    expect((await searchInvoices(database(), account.accountId, parseSearchRequest({}))).pagination.total).toBe(before.pagination.total);
  });
});
