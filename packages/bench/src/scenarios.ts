// What the benchmark asks the service, in the API's own terms. Each search scenario is one request
// body; the raw SQL runner and the bare handler answer the same body with the same SQL.
import { searchRules, type InvoiceSearchRequest, type SortField } from '@invoice-api/contract';
import { commonWord, rareWord } from './dataset/generate.js';
import type { Profile } from './profiles.js';

export interface SearchScenario {
  name: string;
  body: InvoiceSearchRequest;
  /**
   * A filter that matches a large share of the rows: its first page is compared with its next page by
   * cursor when its total is a sum of kept counts (first-page.ts), else with its raw count(*).
   */
  broad: boolean;
  /** Set for a read that is not a search: GET this path (getInvoice of `getInvoiceId`) instead. */
  getPath?: string;
  getInvoiceId?: number;
}

/** getInvoice of one invoice of the bench account, as a scenario beside the searches. */
export function getInvoiceScenario(invoiceId: number): SearchScenario {
  return { name: 'getInvoice', body: {}, broad: false, getPath: `/api/v1/invoices/${invoiceId}`, getInvoiceId: invoiceId };
}

/** The benchmark's caller: the big account, which holds 95 % of the invoices. */
export const benchAccountId = 1;

/** A client of the big account (ids 1..0.88 x clients belong to it, see dataset/generate.ts). */
const benchClientId = 7;

/** Every search scenario; `deepOffset` defaults to the profile's PostgreSQL one. */
export function searchScenarios(profile: Profile, deepOffset = profile.deepOffset): SearchScenario[] {
  const orderBy = (searchRules.sortFields as readonly SortField[]).map(
    (field): SearchScenario => ({ name: `order_by ${field} asc`, body: { order_by: field, order_direction: 'asc' }, broad: false }),
  );
  return [
    { name: 'no criteria', body: {}, broad: true },
    { name: 'client_id =', body: { criteria: [{ field: 'client_id', operator: '=', value: benchClientId }] }, broad: false },
    { name: 'status = paid (half)', body: { criteria: [{ field: 'status', operator: '=', value: 'paid' }] }, broad: true },
    {
      name: 'amount between + due_date >=',
      body: {
        criteria: [
          { field: 'amount', operator: 'between', value: [1000, 2000] },
          { field: 'due_date', operator: '>=', value: '2026-01-01' },
        ],
      },
      broad: false,
    },
    { name: `description like '${commonWord}'`, body: { criteria: [{ field: 'description', operator: 'like', value: commonWord }] }, broad: true },
    { name: `description like '${rareWord}'`, body: { criteria: [{ field: 'description', operator: 'like', value: rareWord }] }, broad: false },
    { name: `deep page offset ${deepOffset.toLocaleString('en-US')}`, body: { offset: deepOffset }, broad: false },
    ...orderBy,
  ];
}
