// The cut that keeps validation cost bounded leaves valid bodies alone and keeps what decides the answer.
import { operationTable } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { boundBody } from '../../src/http/bounded-body.js';

const issueBounds = operationTable.issueDelivery.body.bounds;
const searchBounds = operationTable.searchInvoices.body.bounds;

describe('boundBody', () => {
  it('finds the request body bounds of an operation, and none for a GET', () => {
    expect(issueBounds).toMatchObject({
      known: expect.arrayContaining(['delivery_id', 'items']),
      properties: expect.objectContaining({ items: expect.anything() }),
    });
    expect(operationTable.getInvoice.body).toBeNull();
  });

  it('returns a body within the limits as the very same object', () => {
    const body = { delivery_id: 1, contact_id: 2, items: Array.from({ length: 500 }, (_, index) => ({ item_id: index + 1, quantity: 1, unit_price: 2 })) };
    expect(boundBody(body, issueBounds)).toBe(body);
  });

  it('cuts an array to one more element than its maxItems, keeping the other properties in order', () => {
    const body = { delivery_id: 'x', items: Array.from({ length: 10_000 }, () => ({})), contact_id: 2 };
    const bounded = boundBody(body, issueBounds) as typeof body;
    expect(Object.keys(bounded)).toEqual(['delivery_id', 'items', 'contact_id']);
    expect(bounded.items).toHaveLength(501);
    expect(body.items).toHaveLength(10_000);
  });

  it('cuts nested arrays (search criteria values) and keeps only the first unknown property of an object', () => {
    const body = { zeta: 1, criteria: [{ field: 'status', operator: 'in', value: Array.from({ length: 5_000 }, () => 'paid'), extra: 1, more: 2 }], alpha: 2 };
    const bounded = boundBody(body, searchBounds) as { criteria: Array<Record<string, unknown>> };
    expect(Object.keys(bounded)).toEqual(['zeta', 'criteria']);
    expect(bounded.criteria[0]?.value).toHaveLength(1001);
    expect(Object.keys(bounded.criteria[0] ?? {})).toEqual(['field', 'operator', 'value', 'extra']);
  });

  it('drops unknown properties named like Object.prototype members as any other', () => {
    const body = JSON.parse('{"constructor": 1, "toString": 2, "__proto__": 3, "limit": 5}') as Record<string, unknown>;
    expect(Object.keys(boundBody(body, searchBounds) as object)).toEqual(['constructor', 'limit']);
  });
});
