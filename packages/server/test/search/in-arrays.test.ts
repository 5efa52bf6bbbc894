import { searchRules, type InvoiceSearchRequest } from '@invoice-api/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSearchRequest, searchInvoices } from '../../src/search/index.js';
import { mergeInCriteria, searchStatements } from '../../src/search/query.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';

// Texts an array literal must quote or escape, and one that spells the array literal's NULL.
const awkward = ['quote " inside', 'back\\slash', 'comma, inside', '{braces}', 'NULL', ' padded ', 'Zürich 🚚', ''];

describe.each(engines)('`in` as one array parameter on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_in_arrays' });
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount(database());
    await database()
      .db.insertInto('invoices')
      .values(
        awkward.map((description, index) => ({
          account_id: account.accountId,
          invoice_number: `ARR-${index}`,
          client_id: account.clientIds[0]!,
          client_name: 'Client',
          amount: `${index}.50`,
          currency: 'CHF',
          status: 'sent',
          due_date: `2025-01-0${index + 1}`,
          description,
        })),
      )
      .execute();
  });

  const numbers = async (criteria: InvoiceSearchRequest['criteria']) =>
    (await searchInvoices(database(), account.accountId, parseSearchRequest({ criteria, order_by: 'id', order_direction: 'asc' }))).data.map(
      (invoice) => invoice.invoice_number,
    );

  it.each(awkward.map((text, index) => [JSON.stringify(text), index] as const))('finds the description %s exactly, and only it', async (_, index) => {
    expect(await numbers([{ field: 'description', operator: 'in', value: [awkward[index]!, 'absent'] }])).toEqual([`ARR-${index}`]);
  });

  it('compares every value type through its array', async () => {
    expect(await numbers([{ field: 'amount', operator: 'in', value: [1.5, 3.5, 99] }])).toEqual(['ARR-1', 'ARR-3']);
    expect(await numbers([{ field: 'due_date', operator: 'in', value: ['2025-01-02', '2025-01-08'] }])).toEqual(['ARR-1', 'ARR-7']);
    expect(await numbers([{ field: 'client_id', operator: 'in', value: [account.clientIds[0]!] }])).toHaveLength(awkward.length);
    expect(await numbers([{ field: 'invoice_number', operator: 'in', value: ['ARR-2', 'arr-3'] }])).toEqual(['ARR-2']);
  });

  it('several `in` on one field match their common values (AND)', async () => {
    expect(
      await numbers([
        { field: 'invoice_number', operator: 'in', value: ['ARR-1', 'ARR-2', 'ARR-3'] },
        { field: 'status', operator: '=', value: 'sent' },
        { field: 'invoice_number', operator: 'in', value: ['ARR-3', 'ARR-2', 'ARR-9'] },
      ]),
    ).toEqual(['ARR-2', 'ARR-3']);
    expect(
      await numbers([
        { field: 'invoice_number', operator: 'in', value: ['ARR-1'] },
        { field: 'invoice_number', operator: 'in', value: ['ARR-2'] },
      ]),
    ).toEqual([]);
  });

  it('sends 20 `in` of 1,000 values on two fields as two array parameters per statement', async () => {
    const { maxItems } = searchRules.valueRules.in;
    const criteria = Array.from({ length: searchRules.maxCriteria }, (_, index) => ({
      field: index % 2 === 0 ? 'invoice_number' : 'client_id',
      operator: 'in',
      value: Array.from({ length: maxItems }, (_, element) => (index % 2 === 0 ? `N-${element}` : element + 1)),
    }));
    // Every statement the search may run: the total, and the page by either plan.
    const statements = searchStatements(account.accountId, parseSearchRequest({ criteria }));
    const recorded = [statements.total, statements.page, statements.fewMatchesPage].map((statement) => [...statement.parameters]);
    for (const parameters of recorded) {
      const arrays = parameters.filter((parameter) => Array.isArray(parameter)) as unknown[][];
      expect(arrays.map((array) => array.length)).toEqual([maxItems, maxItems]);
      expect(parameters.length).toBeLessThan(10);
    }
  });
});

describe('mergeInCriteria', () => {
  it("keeps each field's first `in` in place, with the values common to all of that field's lists, each once", () => {
    const { criteria } = parseSearchRequest({
      criteria: [
        { field: 'status', operator: 'in', value: ['paid', 'sent', 'paid', 'draft'] },
        { field: 'amount', operator: '>', value: 5 },
        { field: 'status', operator: 'in', value: ['draft', 'paid', 'overdue'] },
        { field: 'currency', operator: 'in', value: ['CHF'] },
      ],
    });
    expect(mergeInCriteria(criteria)).toEqual([
      { field: 'status', operator: 'in', value: ['paid', 'draft'] },
      { field: 'amount', operator: '>', value: 5 },
      { field: 'currency', operator: 'in', value: ['CHF'] },
    ]);
  });
});
