// The cut that keeps validation cost bounded leaves valid bodies alone and keeps what decides the answer.
import { loadSpec, operationTable } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { boundToSchema, requestBodySchema } from '../../src/http/bounded-body.js';

const spec = loadSpec();
const issueSchema = requestBodySchema(spec, operationTable.issueDelivery);
const searchSchema = requestBodySchema(spec, operationTable.searchInvoices);

describe('boundToSchema', () => {
  it('finds the request body schema of an operation, and none for a GET', () => {
    expect(issueSchema).toMatchObject({ properties: expect.objectContaining({ delivery_id: expect.anything(), items: expect.anything() }) });
    expect(requestBodySchema(spec, operationTable.getInvoice)).toBeUndefined();
  });

  it('returns a body within the limits as the very same object', () => {
    const body = { delivery_id: 1, contact_id: 2, items: Array.from({ length: 500 }, (_, index) => ({ item_id: index + 1, quantity: 1, unit_price: 2 })) };
    expect(boundToSchema(spec, body, issueSchema)).toBe(body);
  });

  it('cuts an array to one more element than its maxItems, keeping the other properties in order', () => {
    const body = { delivery_id: 'x', items: Array.from({ length: 10_000 }, () => ({})), contact_id: 2 };
    const bounded = boundToSchema(spec, body, issueSchema) as typeof body;
    expect(Object.keys(bounded)).toEqual(['delivery_id', 'items', 'contact_id']);
    expect(bounded.items).toHaveLength(501);
    expect(body.items).toHaveLength(10_000);
  });

  it('cuts nested arrays (search criteria values) and keeps only the first unknown property of an object', () => {
    const body = { zeta: 1, criteria: [{ field: 'status', operator: 'in', value: Array.from({ length: 5_000 }, () => 'paid'), extra: 1, more: 2 }], alpha: 2 };
    const bounded = boundToSchema(spec, body, searchSchema) as { criteria: Array<Record<string, unknown>> };
    expect(Object.keys(bounded)).toEqual(['zeta', 'criteria']);
    expect(bounded.criteria[0]?.value).toHaveLength(1001);
    expect(Object.keys(bounded.criteria[0] ?? {})).toEqual(['field', 'operator', 'value', 'extra']);
  });
});
