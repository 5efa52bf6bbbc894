// How a page's rows are read. Near the start of the result (a first page, every page by cursor, and
// offsets up to two pages) the page is one scan of invoices, the plan a hand-written query gets; only a
// deeper offset takes the deferred join (the page's ids by an index-only walk, then each row again by
// its primary key), which skips rows at the cost of index entries but reads every row of the page
// twice. What the statement reads is taken from the EXPLAIN of the very statement the service runs;
// the rows answered are compared with a plain ordered query at every offset around the switch.
// And how many statements a search sends: one, the page with its total and the account's
// invoices_version as columns of every row (one snapshot, one round trip); the total alone only when
// the page has no row; the total first, then the page, for an `in` list. Counted on the service's own
// Kysely instance, by a plugin that sees every result.
import { sql, type KyselyPlugin } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSearchRequest, searchInvoices } from '../../src/search/index.js';
import { directPageOffsetLimit, searchStatements } from '../../src/search/query.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { explainPlan, planNodes } from '../support/explain.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';

const pageSize = 20;
/** One client's invoices, spread over the account's others as a real client's are. */
const clientInvoices = 150;
const otherInvoices = 450;

describe.each(engines)('the statement of a page on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_page_plan' });
  let account: TestAccount;
  let clientId: number;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 2 });
    clientId = account.clientIds[0]!;
    const otherClient = account.clientIds[1]!;
    const total = clientInvoices + otherInvoices;
    // Every fourth invoice is the client's; created_at has ties (every 7 share one), which id breaks.
    await sql`
      insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date, created_at, description)
      select ${account.accountId}, 'PP-' || n, case when n % 4 = 0 then ${clientId}::bigint else ${otherClient}::bigint end, 'Client', 10 + n % 13, 'CHF', 'sent',
             date '2025-01-01' + (n % 365), timestamptz '2025-01-01T00:00:00Z' + (n / 7) * interval '1 hour', ''
      from generate_series(0, ${total - 1}) as n`.execute(database().db);
    await sql`analyze invoices`.execute(database().db);
  }, 120_000);

  const body = (extra: Record<string, unknown> = {}) => ({ criteria: [{ field: 'client_id', operator: '=', value: clientId }], limit: pageSize, ...extra });

  /** How many times the page statement of `request` reads invoices (scans of the table or its indexes). */
  async function invoiceReads(request: Record<string, unknown>): Promise<number> {
    const statement = searchStatements(account.accountId, parseSearchRequest(request)).page;
    const nodes = planNodes(await explainPlan(database(), statement, { analyze: false }));
    return nodes.filter((node) => node['Relation Name'] === 'invoices').length;
  }

  /** The client's invoice ids in the search's default order (created_at desc, id desc), from a plain query. */
  async function expectedIds(): Promise<number[]> {
    const rows = await database()
      .db.selectFrom('invoices')
      .select('id')
      .where('account_id', '=', account.accountId)
      .where('client_id', '=', clientId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => row.id);
  }

  it('reads a first page in one scan of invoices, with no second lookup of its rows', async () => {
    expect(await invoiceReads(body())).toBe(1);
  });

  it('reads a page by cursor in one scan of invoices', async () => {
    const first = await searchInvoices(database(), account.accountId, parseSearchRequest(body()));
    const cursor = first.pagination.next_cursor;
    expect(cursor).toBeDefined();
    expect(await invoiceReads(body({ cursor }))).toBe(1);
  });

  it('reads offsets up to two pages in one scan, deeper ones by the ids first (two reads of invoices)', async () => {
    const deepest = directPageOffsetLimit(pageSize);
    expect(deepest).toBe(2 * pageSize);
    expect(await invoiceReads(body({ offset: deepest }))).toBe(1);
    expect(await invoiceReads(body({ offset: deepest + 1 }))).toBe(2);
  });

  it('answers the same rows in the same order on either side of the switch', async () => {
    const ids = await expectedIds();
    expect(ids).toHaveLength(clientInvoices);
    const deepest = directPageOffsetLimit(pageSize);
    for (const offset of [0, 1, pageSize, deepest - 1, deepest, deepest + 1, deepest + pageSize, clientInvoices - 5]) {
      const page = await searchInvoices(database(), account.accountId, parseSearchRequest(body({ offset })));
      expect(page.data.map((invoice) => invoice.id)).toEqual(ids.slice(offset, offset + pageSize));
      expect(page.pagination.total).toBe(clientInvoices);
    }
  });

  /** `database()` with every statement run through it counted. */
  function countingDatabase(): { database: Database; count: () => number } {
    let statements = 0;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    };
    return { database: { ...database(), db: database().db.withPlugin(plugin) }, count: () => statements };
  }

  it('sends one statement for a page with rows: the page with its total', async () => {
    const { database: counting, count } = countingDatabase();
    const page = await searchInvoices(counting, account.accountId, parseSearchRequest(body()));
    expect(count()).toBe(1);
    expect(page.data).toHaveLength(pageSize);
    expect(page.pagination.total).toBe(clientInvoices);
    // By cursor too, and deep by offset (the deferred join carries the total as well).
    const next = await searchInvoices(counting, account.accountId, parseSearchRequest(body({ cursor: page.pagination.next_cursor })));
    expect(count()).toBe(2);
    expect(next.pagination.total).toBe(clientInvoices);
    const deep = await searchInvoices(counting, account.accountId, parseSearchRequest(body({ offset: directPageOffsetLimit(pageSize) + 1 })));
    expect(count()).toBe(3);
    expect(deep.pagination.total).toBe(clientInvoices);
    // A total from the kept counts rides along the same way.
    const kept = await searchInvoices(
      counting,
      account.accountId,
      parseSearchRequest({ criteria: [{ field: 'status', operator: '=', value: 'sent' }], limit: pageSize }),
    );
    expect(count()).toBe(4);
    expect(kept.pagination.total).toBe(clientInvoices + otherInvoices);
  });

  it('reads the total alone when the page has no row: past the end, or nothing matching', async () => {
    const { database: counting, count } = countingDatabase();
    const pastTheEnd = await searchInvoices(counting, account.accountId, parseSearchRequest(body({ offset: clientInvoices + 10 })));
    expect(count()).toBe(2);
    expect(pastTheEnd.data).toEqual([]);
    expect(pastTheEnd.pagination).toMatchObject({ total: clientInvoices, has_more: false });
    const none = await searchInvoices(counting, account.accountId, parseSearchRequest({ criteria: [{ field: 'amount', operator: '>', value: 1_000_000 }] }));
    expect(count()).toBe(4);
    expect(none.pagination).toMatchObject({ total: 0, has_more: false });
  });

  it('reads the total first for an `in` list, then the page: two statements', async () => {
    const { database: counting, count } = countingDatabase();
    const page = await searchInvoices(
      counting,
      account.accountId,
      parseSearchRequest({ criteria: [{ field: 'client_id', operator: 'in', value: [clientId] }], limit: pageSize }),
    );
    expect(count()).toBe(2);
    expect(page.pagination.total).toBe(clientInvoices);
  });

  it('pages by cursor through every row exactly once', async () => {
    const seen: number[] = [];
    let page = await searchInvoices(database(), account.accountId, parseSearchRequest(body()));
    seen.push(...page.data.map((invoice) => invoice.id));
    while (page.pagination.next_cursor !== undefined) {
      page = await searchInvoices(database(), account.accountId, parseSearchRequest(body({ cursor: page.pagination.next_cursor })));
      seen.push(...page.data.map((invoice) => invoice.id));
    }
    expect(seen).toEqual(await expectedIds());
  });
});
