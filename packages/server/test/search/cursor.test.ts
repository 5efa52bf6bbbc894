import { searchRules, type Invoice, type InvoiceSearchRequest, type SortField } from '@invoice-api/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { encodeCursor, searchDigest } from '../../src/search/cursor.js';
import { parseSearchRequest, searchInvoices, type SearchPage } from '../../src/search/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';

// 137 rows with many equal sort values (3 currencies, 5 statuses, 4 amounts, 3 clients, 6 due dates,
// 9 timestamps): pages cut through runs of ties, which only the id tie-breaker orders. 20 pages of 7
// rows hold 140, so the 20th page is the last and short.
const rowCount = 137;
const pageSize = 7;
const pageCount = 20;
const statuses = ['draft', 'sent', 'paid', 'overdue', 'cancelled'] as const;

interface CursorWalk {
  pages: SearchPage[];
  ids: number[];
}

describe.each(engines)('search by cursor on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_cursor' });
  let mine: TestAccount;
  let other: TestAccount;

  function search(body: Record<string, unknown>, account: TestAccount = mine): Promise<SearchPage> {
    return searchInvoices(database(), account.accountId, parseSearchRequest(body));
  }

  async function walkByCursor(body: Omit<InvoiceSearchRequest, 'cursor' | 'offset'>): Promise<CursorWalk> {
    const pages: SearchPage[] = [];
    let cursor: string | undefined;
    do {
      const page = await search({ ...body, ...(cursor === undefined ? {} : { cursor }) });
      pages.push(page);
      cursor = page.pagination.next_cursor;
    } while (cursor !== undefined && pages.length < pageCount + 5);
    return { pages, ids: pages.flatMap((page) => page.data.map((invoice) => invoice.id)) };
  }

  async function walkByOffset(body: Omit<InvoiceSearchRequest, 'cursor' | 'offset'>, pages: number): Promise<SearchPage[]> {
    const found: SearchPage[] = [];
    for (let index = 0; index < pages; index += 1) found.push(await search({ ...body, offset: index * pageSize }));
    return found;
  }

  beforeAll(async () => {
    mine = await createAccount(database(), { clients: 3 });
    other = await createAccount(database());
    const clients = await database().db.selectFrom('company_clients').select(['id', 'name']).where('account_id', '=', mine.accountId).orderBy('id').execute();
    await database()
      .db.insertInto('invoices')
      .values(
        Array.from({ length: rowCount }, (_, index) => {
          const client = clients[index % 3]!;
          const moment = new Date(Date.UTC(2025, 0, 1 + (index % 9), 8, 0, 0, index % 2)).toISOString();
          return {
            account_id: mine.accountId,
            invoice_number: `CUR-${String((index * 37) % rowCount).padStart(4, '0')}`,
            client_id: client.id,
            client_name: client.name,
            amount: ['0.00', '19.90', '250.00', '1000.05'][index % 4]!,
            currency: ['CHF', 'EUR', 'USD'][index % 3]!,
            status: statuses[index % 5]!,
            due_date: `2025-0${1 + (index % 6)}-15`,
            description: `Cursor row ${index}`,
            created_at: moment,
            updated_at: new Date(Date.parse(moment) + (index % 4) * 3_600_000).toISOString(),
          };
        }),
      )
      .execute();
  });

  const orders = (searchRules.sortFields as readonly SortField[]).flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => [field, direction] as const),
  );

  // An `in` list makes the service count first and, with few matches, sort every match instead of
  // walking the sort index (query.ts, fewMatchesPage): the pages must be those of the plain search.
  it.each(orders)('with an in list (every match sorted), the pages by cursor and by offset are those without it: %s %s', async (orderBy, direction) => {
    const plain = { limit: pageSize, order_by: orderBy, order_direction: direction };
    const withIn = { ...plain, criteria: [{ field: 'currency', operator: 'in', value: ['CHF', 'EUR', 'USD', 'JPY'] }] } as typeof plain;
    const expected = await walkByOffset(plain, pageCount);
    expect((await walkByCursor(withIn)).pages.map((page) => page.data)).toEqual(expected.map((page) => page.data));
    const byOffset = await walkByOffset(withIn, pageCount);
    expect(byOffset.map((page) => page.data)).toEqual(expected.map((page) => page.data));
    // next_cursor is tied to the criteria, so it differs; the rest of the pagination does not.
    const withoutCursor = ({ next_cursor: _cursor, ...pagination }: SearchPage['pagination']) => pagination;
    expect(byOffset.map((page) => withoutCursor(page.pagination))).toEqual(expected.map((page) => withoutCursor(page.pagination)));
  });

  it('answers an in list that matches nothing with an empty page and total 0', async () => {
    const page = await search({ criteria: [{ field: 'currency', operator: 'in', value: ['JPY', 'AUD'] }] });
    expect(page.data).toEqual([]);
    expect(page.pagination).toEqual({ total: 0, limit: 50, offset: 0, has_more: false });
  });

  it.each(orders)('20 pages by cursor hold exactly the rows of 20 pages by offset: %s %s', async (orderBy, direction) => {
    const body = { limit: pageSize, order_by: orderBy, order_direction: direction };
    const byCursor = await walkByCursor(body);
    const byOffset = await walkByOffset(body, pageCount);
    expect(byCursor.pages).toHaveLength(pageCount);
    expect(byCursor.pages.map((page) => page.data)).toEqual(byOffset.map((page) => page.data));
    expect(new Set(byCursor.ids).size).toBe(rowCount);
    // total exact on every page; offset the page's position; has_more false only on the last page.
    expect(byCursor.pages.map((page) => page.pagination.total)).toEqual(Array(pageCount).fill(rowCount));
    expect(byCursor.pages.map((page) => page.pagination.offset)).toEqual(byOffset.map((page) => page.pagination.offset));
    expect(byCursor.pages.map((page) => page.pagination.has_more)).toEqual(byOffset.map((page) => page.pagination.has_more));
    expect(byCursor.pages.at(-1)!.data).toHaveLength(rowCount - (pageCount - 1) * pageSize);
  });

  it('pages by cursor within criteria, and a cursor page may change the limit', async () => {
    const criteria = [{ field: 'status', operator: '!=', value: 'cancelled' }] as InvoiceSearchRequest['criteria'];
    const everything = await search({ limit: 1000, order_by: 'amount', criteria });
    const first = await search({ limit: 10, order_by: 'amount', criteria });
    const rest = await search({ limit: 1000, order_by: 'amount', criteria, cursor: first.pagination.next_cursor });
    expect([...first.data, ...rest.data]).toEqual(everything.data);
    expect(rest.pagination).toEqual({ total: everything.pagination.total, limit: 1000, offset: 10, has_more: false });
  });

  it('answers next_cursor exactly while has_more is true, on offset pages too', async () => {
    const last = await search({ limit: pageSize, offset: rowCount - pageSize });
    expect(last.pagination.has_more).toBe(false);
    expect(last.pagination).not.toHaveProperty('next_cursor');
    const beforeLast = await search({ limit: pageSize, offset: rowCount - pageSize - 1 });
    expect(beforeLast.pagination.has_more).toBe(true);
    const after = await search({ limit: pageSize, cursor: beforeLast.pagination.next_cursor });
    expect(after.data.map((invoice: Invoice) => invoice.id)).toEqual(
      (await search({ limit: pageSize, offset: rowCount - 1 })).data.map((invoice) => invoice.id),
    );
    expect(after.pagination).toEqual({ total: rowCount, limit: pageSize, offset: rowCount - 1, has_more: false });
  });

  it('neither repeats nor skips a row when rows are added before the cursor', async () => {
    const scratch = await createAccount(database());
    const insert = (numbers: string[]) =>
      database()
        .db.insertInto('invoices')
        .values(
          numbers.map((invoiceNumber) => ({
            account_id: scratch.accountId,
            invoice_number: invoiceNumber,
            client_id: scratch.clientIds[0]!,
            client_name: 'Client',
            amount: '1.00',
            currency: 'CHF',
            status: 'sent',
            due_date: '2025-01-01',
            description: '',
          })),
        )
        .execute();
    await insert(['N-05', 'N-06', 'N-07', 'N-08']);
    const first = await search({ limit: 2, order_by: 'invoice_number', order_direction: 'asc' }, scratch);
    await insert(['N-01', 'N-02']);
    const second = await search({ limit: 2, order_by: 'invoice_number', order_direction: 'asc', cursor: first.pagination.next_cursor }, scratch);
    expect([...first.data, ...second.data].map((invoice) => invoice.invoice_number)).toEqual(['N-05', 'N-06', 'N-07', 'N-08']);
    expect(second.pagination).toMatchObject({ total: 6, has_more: false });
  });

  async function cursorProblem(body: Record<string, unknown>, account: TestAccount = mine): Promise<{ field: string; issue: string } | undefined> {
    try {
      await search(body, account);
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      return error.details as { field: string; issue: string };
    }
  }

  describe('a cursor tied to its search', () => {
    const criteria = [{ field: 'currency', operator: 'in', value: ['CHF', 'EUR'] }];
    let cursor: string;
    beforeAll(async () => {
      cursor = (await search({ limit: 3, order_by: 'due_date', order_direction: 'asc', criteria })).pagination.next_cursor!;
    });

    it('works with the search it came from', async () => {
      expect(await cursorProblem({ order_by: 'due_date', order_direction: 'asc', criteria, cursor })).toBeUndefined();
    });

    it.each([
      ['other criteria', { order_by: 'due_date', order_direction: 'asc', criteria: [{ field: 'currency', operator: 'in', value: ['CHF'] }] }],
      ['no criteria', { order_by: 'due_date', order_direction: 'asc' }],
      ['another order_by', { order_by: 'amount', order_direction: 'asc', criteria }],
      ['another direction', { order_by: 'due_date', order_direction: 'desc', criteria }],
    ])('is a 400 naming cursor with %s', async (_, body) => {
      expect(await cursorProblem({ ...body, cursor })).toEqual({ field: 'cursor', issue: expect.stringContaining('belongs to another search') });
    });

    it('is a 400 naming cursor in another account', async () => {
      expect(await cursorProblem({ order_by: 'due_date', order_direction: 'asc', criteria, cursor }, other)).toMatchObject({ field: 'cursor' });
    });

    it('is a 400 naming cursor when combined with an offset other than 0 (the default 0 goes with it)', async () => {
      expect(await cursorProblem({ order_by: 'due_date', order_direction: 'asc', criteria, cursor, offset: 1 })).toEqual({
        field: 'cursor',
        issue: 'cannot be combined with an offset other than 0',
      });
      expect(await cursorProblem({ order_by: 'due_date', order_direction: 'asc', criteria, cursor, offset: 0 })).toBeUndefined();
    });

    it.each([
      ['altered payload', (text: string) => `${text.slice(0, 5)}${text[5] === 'A' ? 'B' : 'A'}${text.slice(6)}`],
      ['altered checksum', (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`],
      ['no checksum', (text: string) => text.split('.')[0]!],
      ['an extra part', (text: string) => `${text}.x`],
      ['not base64', () => 'not a cursor'],
      ['an empty checksum', () => 'e30.'],
    ])('is a 400 naming cursor when malformed: %s', async (_, alter) => {
      expect(await cursorProblem({ order_by: 'due_date', order_direction: 'asc', criteria, cursor: alter(cursor) })).toEqual({
        field: 'cursor',
        issue: expect.stringContaining('malformed or altered'),
      });
    });

    it.each([
      ['a date that is no date', 'due_date', 'not-a-date'],
      ['a number for a date', 'due_date', 20250115],
      ['text with NUL', 'client_name', 'a\u0000b'],
      ['a fraction for an id', 'client_id', 1.5],
    ] as const)('is a 400 naming cursor when forged with a valid checksum but %s', async (_, orderBy, sortValue) => {
      const body = { order_by: orderBy, order_direction: 'asc', criteria };
      const parsed = parseSearchRequest(body);
      const digest = searchDigest({ accountId: mine.accountId, orderBy, direction: 'asc', criteria: parsed.criteria });
      const forged = encodeCursor({ sortValue: sortValue as string, id: 1, position: 3, total: 10, invoicesVersion: 1 }, digest);
      expect(await cursorProblem({ ...body, cursor: forged })).toMatchObject({ field: 'cursor', issue: expect.stringContaining('malformed or altered') });
    });

    it.each([[''], [7], [null], ['x'.repeat(searchRules.cursor.maxLength + 1)]])('is a 400 naming cursor when not a cursor string: %j', async (value) => {
      expect(await cursorProblem({ cursor: value })).toMatchObject({ field: 'cursor', issue: expect.stringContaining('must be a string') });
    });
  });
});
