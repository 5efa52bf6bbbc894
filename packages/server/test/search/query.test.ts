import { searchRules, type Invoice, type InvoiceSearchRequest, type SearchableField, type SearchOperator } from '@invoice-api/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NewInvoiceRow } from '../../src/db/schema.js';
import { parseSearchRequest, searchInvoices, type SearchPage } from '../../src/search/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';

type Row = Omit<NewInvoiceRow, 'account_id' | 'client_id' | 'client_name'> & { client: 0 | 1 };

// Hand-picked rows: every operator and edge has a row that should match and one that should not.
const specialRows: Row[] = [
  {
    invoice_number: 'INV-A1',
    client: 0,
    amount: '10.00',
    currency: 'CHF',
    status: 'draft',
    due_date: '2025-01-10',
    description: '100% discount applied',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  },
  {
    invoice_number: 'INV-A2',
    client: 1,
    amount: '20.50',
    currency: 'EUR',
    status: 'sent',
    due_date: '2025-02-10',
    description: 'Consulting under_score',
    created_at: '2025-01-02T10:00:00.123Z',
    updated_at: '2025-01-05T00:00:00.000Z',
  },
  {
    invoice_number: 'INV-A3',
    client: 0,
    amount: '20.50',
    currency: 'CHF',
    status: 'paid',
    due_date: '2025-03-10',
    description: 'CONSULTING services',
    created_at: '2025-01-03T00:00:00.000Z',
    updated_at: '2025-01-06T00:00:00.000Z',
  },
  {
    invoice_number: 'inv-b4',
    client: 1,
    amount: '999999999999.99',
    currency: 'USD',
    status: 'overdue',
    due_date: '2025-01-10',
    description: 'path \\ backslash',
    created_at: '2025-01-03T00:00:00.000Z',
    updated_at: '2025-01-07T00:00:00.000Z',
  },
  {
    invoice_number: 'INV-A5',
    client: 0,
    amount: '0.00',
    currency: 'GBP',
    status: 'cancelled',
    due_date: '2025-12-31',
    description: 'Lieferung Zürich',
    created_at: '2025-02-01T12:00:00.000Z',
    updated_at: '2025-02-01T12:00:00.000Z',
  },
];
// Plain rows to page through: amounts 1..25, one hour apart.
const bulkRows: Row[] = Array.from({ length: 25 }, (_, index) => ({
  invoice_number: `BULK-${String(index + 1).padStart(2, '0')}`,
  client: (index % 2) as 0 | 1,
  amount: `${index + 1}.00`,
  currency: 'CHF',
  status: 'sent',
  due_date: '2025-06-30',
  description: `Bulk line ${index + 1}`,
  created_at: new Date(Date.UTC(2025, 2, 1, index)).toISOString(),
  updated_at: new Date(Date.UTC(2025, 2, 1, index)).toISOString(),
}));

describe.each(engines)('invoice search on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_query' });
  let mine: TestAccount;
  let other: TestAccount;
  let all: Invoice[];

  async function insertRows(account: TestAccount, rows: readonly Row[]): Promise<void> {
    const clients = await database()
      .db.selectFrom('company_clients')
      .select(['id', 'name'])
      .where('account_id', '=', account.accountId)
      .orderBy('id')
      .execute();
    await database()
      .db.insertInto('invoices')
      .values(
        rows.map(({ client, ...row }) => ({
          ...row,
          account_id: account.accountId,
          client_id: clients[client]!.id,
          client_name: clients[client]!.name,
        })),
      )
      .execute();
  }

  async function search(body: InvoiceSearchRequest | Record<string, unknown> | undefined, account: TestAccount = mine): Promise<SearchPage> {
    return searchInvoices(database(), account.accountId, parseSearchRequest(body));
  }

  const numbers = (page: SearchPage): string[] => page.data.map((invoice) => invoice.invoice_number).sort();

  beforeAll(async () => {
    mine = await createAccount(database());
    other = await createAccount(database());
    await insertRows(mine, [...specialRows, ...bulkRows]);
    // The other account has a look-alike of INV-A1: it must never show up in `mine`'s results.
    await insertRows(other, [specialRows[0]!]);
    all = (await search({ limit: 1000, order_by: 'id', order_direction: 'asc' })).data;
  });

  it('returns every invoice of the account for no criteria, newest first, 50 at most', async () => {
    const page = await search(undefined);
    expect(page.pagination).toEqual({ total: 30, limit: 50, offset: 0, has_more: false });
    expect(page.data).toHaveLength(30);
    const created = page.data.map((invoice) => invoice.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(page.data.every((invoice) => invoice.client_name.startsWith('Client '))).toBe(true);
  });

  it('returns the API shape with exact numbers and plain dates', async () => {
    const invoice = all.find((entry) => entry.invoice_number === 'inv-b4')!;
    expect(invoice).toMatchObject({ amount: 999999999999.99, due_date: '2025-01-10', created_at: '2025-01-03T00:00:00.000Z', status: 'overdue' });
    expect(Object.keys(invoice).sort()).toEqual([
      'amount',
      'client_id',
      'client_name',
      'created_at',
      'currency',
      'description',
      'due_date',
      'id',
      'invoice_number',
      'status',
      'updated_at',
    ]);
  });

  // Every allowed (field, operator) pair of the allow-list against a plain JavaScript reference.
  const pairs = Object.entries(searchRules.fields).flatMap(([field, rule]) =>
    rule.operators.map((operator) => [field as SearchableField, operator as SearchOperator] as const),
  );
  it.each(pairs)('%s %s matches what a reference filter says', async (field, operator) => {
    const values = all.map((invoice) => invoice[field]);
    const sample = values[3]!;
    const other = values[12]!;
    const compare = (left: string | number, right: string | number): number =>
      typeof left === 'number' && typeof right === 'number' ? left - right : left < right ? -1 : left > right ? 1 : 0;
    const [low, high] = compare(sample, other) <= 0 ? [sample, other] : [other, sample];
    const likeText = String(sample).slice(1, 4).toUpperCase() || 'x';
    const cases: Record<SearchOperator, { value: unknown; test: (candidate: string | number) => boolean }> = {
      '=': { value: sample, test: (candidate) => compare(candidate, sample) === 0 },
      '!=': { value: sample, test: (candidate) => compare(candidate, sample) !== 0 },
      '>': { value: sample, test: (candidate) => compare(candidate, sample) > 0 },
      '<': { value: sample, test: (candidate) => compare(candidate, sample) < 0 },
      '>=': { value: sample, test: (candidate) => compare(candidate, sample) >= 0 },
      '<=': { value: sample, test: (candidate) => compare(candidate, sample) <= 0 },
      in: { value: [sample, other], test: (candidate) => compare(candidate, sample) === 0 || compare(candidate, other) === 0 },
      between: { value: [low, high], test: (candidate) => compare(candidate, low) >= 0 && compare(candidate, high) <= 0 },
      like: { value: likeText, test: (candidate) => String(candidate).toLowerCase().includes(likeText.toLowerCase()) },
    };
    const { value, test } = cases[operator];
    const expected = all.filter((invoice) => test(invoice[field])).map((invoice) => invoice.id);
    const page = await search({
      limit: 1000,
      order_by: 'id',
      order_direction: 'asc',
      criteria: [{ field, operator, value }] as InvoiceSearchRequest['criteria'],
    });
    expect(page.data.map((invoice) => invoice.id)).toEqual(expected);
    expect(page.pagination.total).toBe(expected.length);
  });

  it('combines criteria with AND', async () => {
    const page = await search({
      criteria: [
        { field: 'amount', operator: '=', value: 20.5 },
        { field: 'currency', operator: '=', value: 'CHF' },
      ],
    });
    expect(numbers(page)).toEqual(['INV-A3']);
  });

  it.each([
    ['=', 20.5, ['INV-A2', 'INV-A3']],
    ['!=', 20.5, 28],
    ['>', 24, ['BULK-25', 'inv-b4']],
    ['<', 1, ['INV-A5']],
    ['>=', 25, ['BULK-25', 'inv-b4']],
    ['<=', 1, ['BULK-01', 'INV-A5']],
  ] as const)('compares amount with %s exactly', async (operator, value, expected) => {
    const page = await search({ criteria: [{ field: 'amount', operator, value }] });
    if (typeof expected === 'number') expect(page.pagination.total).toBe(expected);
    else expect(numbers(page)).toEqual([...expected].sort());
  });

  it('compares amounts that JSON writes in exponent form', async () => {
    expect(numbers(await search({ criteria: [{ field: 'amount', operator: 'between', value: [1e-7, 0.5] }] }))).toEqual([]);
    expect((await search({ criteria: [{ field: 'amount', operator: '<', value: 1e21 }] })).pagination.total).toBe(30);
  });

  it('matches the largest amount exactly', async () => {
    expect(numbers(await search({ criteria: [{ field: 'amount', operator: '=', value: 999999999999.99 }] }))).toEqual(['inv-b4']);
  });

  it('takes in and between (inclusive) for numbers', async () => {
    expect(numbers(await search({ criteria: [{ field: 'amount', operator: 'in', value: [10, 0, 3] }] }))).toEqual(['BULK-03', 'BULK-10', 'INV-A1', 'INV-A5']);
    expect(numbers(await search({ criteria: [{ field: 'amount', operator: 'between', value: [20, 20.5] }] }))).toEqual(['BULK-20', 'INV-A2', 'INV-A3']);
    const clientId = mine.clientIds[1]!;
    const ofClient = await search({ criteria: [{ field: 'client_id', operator: 'in', value: [clientId] }] });
    expect(ofClient.pagination.total).toBe(all.filter((invoice) => invoice.client_id === clientId).length);
    expect(ofClient.data.every((invoice) => invoice.client_id === clientId)).toBe(true);
  });

  it('compares due dates, between inclusive at both ends', async () => {
    expect(numbers(await search({ criteria: [{ field: 'due_date', operator: 'between', value: ['2025-01-10', '2025-02-10'] }] }))).toEqual([
      'INV-A1',
      'INV-A2',
      'inv-b4',
    ]);
    expect(numbers(await search({ criteria: [{ field: 'due_date', operator: '>', value: '2025-06-30' }] }))).toEqual(['INV-A5']);
  });

  it('reads a date for a timestamp field as 00:00:00Z of that day', async () => {
    expect(numbers(await search({ criteria: [{ field: 'created_at', operator: '=', value: '2025-01-03' }] }))).toEqual(['INV-A3', 'inv-b4']);
    expect(numbers(await search({ criteria: [{ field: 'created_at', operator: '<', value: '2025-01-02' }] }))).toEqual(['INV-A1']);
  });

  it('matches a created_at read from the API with = (millisecond precision)', async () => {
    const invoice = all.find((entry) => entry.invoice_number === 'INV-A2')!;
    expect(invoice.created_at).toBe('2025-01-02T10:00:00.123Z');
    expect(numbers(await search({ criteria: [{ field: 'created_at', operator: '=', value: invoice.created_at }] }))).toEqual(['INV-A2']);
    // The same instant written with an offset.
    expect(numbers(await search({ criteria: [{ field: 'created_at', operator: '=', value: '2025-01-02T11:00:00.123+01:00' }] }))).toEqual(['INV-A2']);
    expect(numbers(await search({ criteria: [{ field: 'updated_at', operator: 'between', value: ['2025-01-05', '2025-01-06T00:00:00Z'] }] }))).toEqual([
      'INV-A2',
      'INV-A3',
    ]);
  });

  it('filters status and currency with =, != and in', async () => {
    expect(numbers(await search({ criteria: [{ field: 'status', operator: 'in', value: ['paid', 'overdue'] }] }))).toEqual(['INV-A3', 'inv-b4']);
    expect((await search({ criteria: [{ field: 'currency', operator: '!=', value: 'CHF' }] })).pagination.total).toBe(3);
    expect(numbers(await search({ criteria: [{ field: 'status', operator: '=', value: 'draft' }] }))).toEqual(['INV-A1']);
  });

  it('matches like as a case-insensitive substring', async () => {
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'like', value: 'consulting' }] }))).toEqual(['INV-A2', 'INV-A3']);
    expect(numbers(await search({ criteria: [{ field: 'invoice_number', operator: 'like', value: 'INV-B' }] }))).toEqual(['inv-b4']);
  });

  it('folds case beyond ASCII in like', async () => {
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'like', value: 'ZÜRICH' }] }))).toEqual(['INV-A5']);
  });

  it('treats % _ and \\ in a like value as plain characters', async () => {
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'like', value: '%' }] }))).toEqual(['INV-A1']);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'like', value: '_' }] }))).toEqual(['INV-A2']);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'like', value: '\\' }] }))).toEqual(['inv-b4']);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'like', value: '0%_d' }] }))).toEqual([]);
  });

  it('matches = on text exactly and case-sensitively, and in on a list of numbers', async () => {
    expect(numbers(await search({ criteria: [{ field: 'invoice_number', operator: '=', value: 'inv-b4' }] }))).toEqual(['inv-b4']);
    expect(numbers(await search({ criteria: [{ field: 'invoice_number', operator: '=', value: 'INV-B4' }] }))).toEqual([]);
    expect(numbers(await search({ criteria: [{ field: 'invoice_number', operator: 'in', value: ['INV-A1', 'BULK-07', 'nope'] }] }))).toEqual([
      'BULK-07',
      'INV-A1',
    ]);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: '=', value: 'Lieferung Zürich' }] }))).toEqual(['INV-A5']);
  });

  it('finds a long multi-byte description with = and in', async () => {
    const account = await createAccount(database());
    const long = 'Ω🧾'.repeat(500);
    await insertRows(account, [
      { ...specialRows[0]!, description: long },
      { ...specialRows[1]!, description: '🧾Ω'.repeat(500) },
    ]);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: '=', value: long }] }, account))).toEqual(['INV-A1']);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: 'in', value: [long, 'other'] }] }, account))).toEqual(['INV-A1']);
    expect(numbers(await search({ criteria: [{ field: 'description', operator: '!=', value: long }] }, account))).toEqual(['INV-A2']);
  });

  it('keeps values out of the SQL text', async () => {
    const hostile = "x'; drop table invoices; --";
    expect(
      (
        await search({
          criteria: [
            { field: 'description', operator: 'like', value: hostile },
            { field: 'invoice_number', operator: '=', value: hostile },
          ],
        })
      ).pagination.total,
    ).toBe(0);
    const { rows } = await sql<{ n: number }>`select count(*) as n from invoices`.execute(database().db);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(31);
  });

  it.each(['id', 'invoice_number', 'client_id', 'client_name', 'amount', 'currency', 'status', 'due_date', 'created_at', 'updated_at'] as const)(
    'sorts by %s in both directions with id as the tie-breaker',
    async (field) => {
      const compare = (left: Invoice, right: Invoice): number => {
        const a = left[field];
        const b = right[field];
        const primary = typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
        return primary !== 0 ? primary : left.id - right.id;
      };
      const ascending = [...all].sort(compare).map((invoice) => invoice.id);
      expect((await search({ order_by: field, order_direction: 'asc', limit: 100 })).data.map((invoice) => invoice.id)).toEqual(ascending);
      expect((await search({ order_by: field, order_direction: 'desc', limit: 100 })).data.map((invoice) => invoice.id)).toEqual([...ascending].reverse());
    },
  );

  it('sorts text by code point: upper case before lower case', async () => {
    const page = await search({ order_by: 'invoice_number', order_direction: 'asc', criteria: [{ field: 'invoice_number', operator: 'like', value: 'inv-' }] });
    expect(page.data.map((invoice) => invoice.invoice_number)).toEqual(['INV-A1', 'INV-A2', 'INV-A3', 'INV-A5', 'inv-b4']);
  });

  it('pages without gaps or repeats, with an exact total and has_more', async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const page = await search({ limit: 7, offset, order_by: 'currency', order_direction: 'asc' });
      expect(page.pagination).toMatchObject({ total: 30, limit: 7, offset, has_more: offset + page.data.length < 30 });
      seen.push(...page.data.map((invoice) => invoice.id));
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    const last = await search({ limit: 7, offset: 28 });
    expect(last.pagination.has_more).toBe(false);
    expect(last.data).toHaveLength(2);
  });

  it('answers an offset past the end with no rows and the exact total', async () => {
    expect((await search({ offset: 1000 })).pagination).toEqual({ total: 30, limit: 50, offset: 1000, has_more: false });
    expect((await search({ offset: 2147483647, limit: 1 })).data).toEqual([]);
  });

  it("never returns another account's invoices", async () => {
    const theirs = await search({ criteria: [{ field: 'invoice_number', operator: '=', value: 'INV-A1' }] }, other);
    expect(theirs.pagination.total).toBe(1);
    expect(theirs.data[0]!.client_id).toBe(other.clientIds[0]);
    const ours = await search({ criteria: [{ field: 'description', operator: 'like', value: '100%' }] });
    expect(ours.data.map((invoice) => invoice.id)).toEqual([all.find((invoice) => invoice.invoice_number === 'INV-A1')!.id]);
    expect((await search(undefined, other)).pagination.total).toBe(1);
  });
});
