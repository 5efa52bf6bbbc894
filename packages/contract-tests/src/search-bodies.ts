// The search bodies the contract suite sends to every target (search-rules.all.test.ts) and to the
// client's MSW handlers beside the service (msw-handlers.service.test.ts): every field x operator the
// matrix refuses, wrong value types, empty and over-long `in` lists, bad dates, decimals and timestamps,
// bad top-level properties; and valid bodies that use every field.
import { searchRules } from '@invoice-api/contract';

export interface SearchCase {
  name: string;
  body: unknown;
  status: 200 | 400;
  /** details.field the service names (400 only). */
  field?: string;
}

type Field = keyof typeof searchRules.fields;

/** A value of the right type for each field, so that a case changes one thing only. */
const sample: Record<Field, string | number> = {
  client_id: 7,
  amount: 12.5,
  due_date: '2026-01-31',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01',
  status: 'paid',
  currency: 'CHF',
  invoice_number: 'INV-000001',
  description: 'consulting',
};

export const criteria = (...list: Array<[field: string, operator: string, value: unknown]>) => ({
  criteria: list.map(([field, operator, value]) => ({ field, operator, value })),
});

function shapedValue(field: Field, operator: string): unknown {
  if (operator === 'in') return [sample[field]];
  if (operator === 'between') return [sample[field], sample[field]];
  return operator === 'like' ? String(sample[field]) : sample[field];
}

/** Every pair of field and operator the matrix refuses, with a value of the field's type. */
const refusedPairs: SearchCase[] = (Object.keys(searchRules.fields) as Field[]).flatMap((field) =>
  searchRules.operators
    .filter((operator) => !(searchRules.fields[field].operators as readonly string[]).includes(operator))
    .map((operator) => ({ name: `${field} ${operator}`, body: criteria([field, operator, shapedValue(field, operator)]), status: 400 as const, field })),
);

export const invalidSearches: SearchCase[] = [
  ...refusedPairs,
  { name: 'an unknown field', body: criteria(['client_name', '=', 'Muster AG']), status: 400, field: 'client_name' },
  { name: 'an unknown operator', body: criteria(['amount', '~', 1]), status: 400, field: 'amount' },
  { name: 'a criterion without field', body: { criteria: [{ operator: '=', value: 1 }] }, status: 400, field: 'criteria[0].field' },
  {
    name: 'a criterion with an extra property',
    body: { criteria: [{ field: 'amount', operator: '=', value: 1, negate: true }] },
    status: 400,
    field: 'amount',
  },
  { name: 'a string for an integer', body: criteria(['client_id', '=', '7']), status: 400, field: 'client_id' },
  { name: 'a decimal for an integer', body: criteria(['client_id', '>', 1.5]), status: 400, field: 'client_id' },
  { name: 'a decimal written as a string', body: criteria(['amount', '>=', '12.50']), status: 400, field: 'amount' },
  { name: 'a decimal with a comma', body: criteria(['amount', '<', '12,5']), status: 400, field: 'amount' },
  { name: 'an array for a scalar operator', body: criteria(['amount', '=', [1]]), status: 400, field: 'amount' },
  { name: 'an empty in list', body: criteria(['client_id', 'in', []]), status: 400, field: 'client_id' },
  {
    name: 'an in list of 1001 values',
    body: criteria(['client_id', 'in', Array.from({ length: 1001 }, (_, index) => index + 1)]),
    status: 400,
    field: 'client_id',
  },
  { name: 'an in list with a value of the wrong type', body: criteria(['status', 'in', ['paid', 'open']]), status: 400, field: 'status' },
  { name: 'a scalar for in', body: criteria(['currency', 'in', 'CHF']), status: 400, field: 'currency' },
  { name: 'between with one value', body: criteria(['amount', 'between', [1]]), status: 400, field: 'amount' },
  { name: 'between with three values', body: criteria(['amount', 'between', [1, 2, 3]]), status: 400, field: 'amount' },
  { name: 'a date that does not exist', body: criteria(['due_date', '=', '2026-02-30']), status: 400, field: 'due_date' },
  { name: 'a date without leading zeros', body: criteria(['due_date', '<', '2026-2-3']), status: 400, field: 'due_date' },
  { name: 'a timestamp for a date', body: criteria(['due_date', '>', '2026-01-01T00:00:00Z']), status: 400, field: 'due_date' },
  { name: 'a timestamp without zone', body: criteria(['created_at', '>=', '2026-01-01T10:00']), status: 400, field: 'created_at' },
  { name: 'a timestamp at hour 25', body: criteria(['created_at', '>=', '2026-01-01T25:00:00Z']), status: 400, field: 'created_at' },
  { name: 'a timestamp on 29 February of a common year', body: criteria(['updated_at', '<', '2026-02-29T10:00:00Z']), status: 400, field: 'updated_at' },
  { name: 'a between with a bad date', body: criteria(['due_date', 'between', ['2026-01-01', '2026-13-01']]), status: 400, field: 'due_date' },
  { name: 'a status in capitals', body: criteria(['status', '=', 'PAID']), status: 400, field: 'status' },
  { name: 'a currency in lower case', body: criteria(['currency', '=', 'chf']), status: 400, field: 'currency' },
  { name: 'an empty like', body: criteria(['description', 'like', '']), status: 400, field: 'description' },
  { name: 'a like of 201 characters', body: criteria(['description', 'like', 'x'.repeat(201)]), status: 400, field: 'description' },
  { name: 'a number for a text', body: criteria(['invoice_number', '=', 12]), status: 400, field: 'invoice_number' },
  { name: 'a text of 1001 characters', body: criteria(['description', '=', 'x'.repeat(1001)]), status: 400, field: 'description' },
  { name: 'a valid criterion before a refused one', body: criteria(['status', '=', 'paid'], ['amount', 'like', '12']), status: 400, field: 'amount' },
  { name: 'limit 0', body: { limit: 0 }, status: 400, field: 'limit' },
  { name: 'a negative offset', body: { offset: -1 }, status: 400, field: 'offset' },
  { name: 'an unknown sort field', body: { order_by: 'description' }, status: 400, field: 'order_by' },
  { name: 'an unknown direction', body: { order_direction: 'up' }, status: 400, field: 'order_direction' },
  { name: 'an unknown property', body: { page: 2 }, status: 400, field: 'page' },
  {
    name: '21 criteria',
    body: criteria(...Array.from({ length: 21 }, () => ['status', '=', 'paid'] as [string, string, unknown])),
    status: 400,
    field: 'criteria',
  },
];

export const validSearches: SearchCase[] = [
  { name: 'every default', body: {}, status: 200 },
  { name: 'client_id in 1000 values', body: criteria(['client_id', 'in', Array.from({ length: 1000 }, (_, index) => index + 1)]), status: 200 },
  { name: 'amount at or above 5000', body: criteria(['amount', '>=', 5000]), status: 200 },
  { name: 'amount between two decimals', body: criteria(['amount', 'between', [0.07, 19.99]]), status: 200 },
  { name: 'due_date between two dates, leap day included', body: criteria(['due_date', 'between', ['2024-02-29', '2026-03-31']]), status: 200 },
  { name: 'created_at after a timestamp without seconds', body: criteria(['created_at', '>', '2026-01-01T10:00+02:00']), status: 200 },
  { name: 'updated_at before a date', body: criteria(['updated_at', '<', '2026-01-01']), status: 200 },
  { name: 'status in two statuses', body: criteria(['status', 'in', ['paid', 'overdue']]), status: 200 },
  { name: 'currency not CHF', body: criteria(['currency', '!=', 'CHF']), status: 200 },
  { name: 'invoice_number like', body: criteria(['invoice_number', 'like', 'INV-%_']), status: 200 },
  { name: 'description of 1000 characters', body: criteria(['description', '=', 'x'.repeat(1000)]), status: 200 },
  { name: 'a like of 200 characters', body: criteria(['description', 'like', 'x'.repeat(200)]), status: 200 },
  {
    name: '20 criteria with every option',
    body: {
      limit: 1000,
      offset: 2147483647,
      order_by: 'client_name',
      order_direction: 'asc',
      ...criteria(...Array.from({ length: 20 }, () => ['status', '=', 'paid'] as [string, string, unknown])),
    },
    status: 200,
  },
];
