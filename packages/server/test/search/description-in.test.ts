// An `in` on description in an account whose descriptions repeat (as invoices' do: a few texts over
// many invoices). PostgreSQL estimates a listed value it does not know to match as many rows as a
// typical description, so to the planner 1,000 made-up values are the whole account. The statement
// first keeps only the listed digests some invoice of the account has, one index probe per value
// (query.ts, digestsPresent), so that such a list reads no invoice. What the statement reads is taken
// from EXPLAIN ANALYZE of the very statement the service runs, never from timing.
import { searchRules } from '@invoice-api/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSearchRequest, searchInvoices } from '../../src/search/index.js';
import { searchStatements } from '../../src/search/query.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { explainPlan, planNodes, type PlanNode } from '../support/explain.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';

/** Large enough that reading the account costs the planner more than 1,000 probes of an index. */
const invoiceCount = 21_000;
/** Too many for the planner to keep each as a common value, as in a real account. */
const distinctDescriptions = 300;
const descriptionOf = (index: number): string => `Recurring service ${index % distinctDescriptions}`;

describe.each(engines)('`in` on description, in an account of repeating descriptions, on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'search_description_in' });
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount(database());
    const clientId = account.clientIds[0]!;
    await sql`
      insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date, description)
      select ${account.accountId}, 'DIN-' || n, ${clientId}, 'Client', 10, 'CHF', 'sent', date '2025-01-01' + (n % 365),
             'Recurring service ' || (n % ${distinctDescriptions})
      from generate_series(0, ${invoiceCount - 1}) as n`.execute(database().db);
    await sql`analyze invoices`.execute(database().db);
  }, 120_000);

  const madeUp = Array.from({ length: searchRules.valueRules.in.maxItems }, (_, index) => `Never billed ${index}`);

  /** The plan's nodes on invoices, run: `present` is the probe of digestsPresent, the others read the matches. */
  async function invoiceScansOfTotal(values: string[]): Promise<{ probes: PlanNode[]; reads: PlanNode[] }> {
    const statement = searchStatements(account.accountId, parseSearchRequest({ criteria: [{ field: 'description', operator: 'in', value: values }] })).total;
    const nodes = planNodes(await explainPlan(database(), statement, { analyze: true })).filter((node) => node['Relation Name'] === 'invoices');
    return { probes: nodes.filter((node) => node.Alias === 'present'), reads: nodes.filter((node) => node.Alias !== 'present') };
  }

  /** Rows the nodes kept or filtered out, over all their loops (per-loop counts are rounded: exact only at whole rows per loop). */
  const rowsOf = (nodes: PlanNode[]): number =>
    nodes.reduce((sum, node) => sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1), 0);

  it('answers 1,000 made-up descriptions without reading an invoice', async () => {
    const { probes, reads } = await invoiceScansOfTotal(madeUp);
    expect(rowsOf([...probes, ...reads])).toBe(0);
    // Each probe looks in the caller's account only.
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.every((node) => String(node['Index Cond']).includes('account_id'))).toBe(true);
    const page = await searchInvoices(
      database(),
      account.accountId,
      parseSearchRequest({ criteria: [{ field: 'description', operator: 'in', value: madeUp }] }),
    );
    expect(page.pagination.total).toBe(0);
    expect(page.data).toEqual([]);
  });

  it('reads only the matches of the listed values that exist, and counts them exactly', async () => {
    const listed = [...madeUp.slice(0, 998), descriptionOf(3), descriptionOf(7)];
    const perDescription = invoiceCount / distinctDescriptions;
    expect(rowsOf((await invoiceScansOfTotal(listed)).reads)).toBe(2 * perDescription);
    const page = await searchInvoices(
      database(),
      account.accountId,
      parseSearchRequest({ criteria: [{ field: 'description', operator: 'in', value: listed }], limit: 5, order_by: 'id', order_direction: 'asc' }),
    );
    expect(page.pagination.total).toBe(2 * perDescription);
    expect(page.data.map((invoice) => invoice.description)).toEqual([3, 7, 303, 307, 603].map(descriptionOf));
  });

  it('matches only its own account: another account with the same descriptions does not count', async () => {
    const other = await createAccount(database());
    await database()
      .db.insertInto('invoices')
      .values({
        account_id: other.accountId,
        invoice_number: 'OTHER-1',
        client_id: other.clientIds[0]!,
        client_name: 'Client',
        amount: '1.00',
        currency: 'CHF',
        status: 'sent',
        due_date: '2025-01-01',
        description: 'Only in the other account',
      })
      .execute();
    const total = async (accountId: number) =>
      (
        await searchInvoices(
          database(),
          accountId,
          parseSearchRequest({ criteria: [{ field: 'description', operator: 'in', value: ['Only in the other account', descriptionOf(1)] }] }),
        )
      ).pagination.total;
    expect(await total(account.accountId)).toBe(invoiceCount / distinctDescriptions);
    expect(await total(other.accountId)).toBe(1);
  });
});
