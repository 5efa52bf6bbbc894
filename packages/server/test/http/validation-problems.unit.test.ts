// How the validator's problem list becomes the one problem the Error object names.
import { operationTable } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { fieldName, invalidRequest } from '../../src/http/validation-problems.js';

const issue = operationTable.issueDelivery;

describe('fieldName', () => {
  it('writes JSON paths the way a client reads them', () => {
    expect(fieldName(['delivery_id'])).toBe('delivery_id');
    expect(fieldName(['items', 0, 'quantity'])).toBe('items[0].quantity');
    expect(fieldName(['a', 1, 2, 'b'])).toBe('a[1][2].b');
  });
});

describe('invalidRequest', () => {
  it('picks the first problem in body order, not in the order the validator lists them', () => {
    const body = { items: [{ item_id: 1, quantity: 0 }], contact_id: 'x' };
    const error = invalidRequest(
      [
        { path: '/body/contact_id', message: 'must be integer', errorCode: 'type.openapi.validation' },
        { path: '/body/items/0/quantity', message: 'must be > 0', errorCode: 'exclusiveMinimum.openapi.validation' },
      ],
      body,
      issue,
    );
    expect(error.details).toEqual({ field: 'items[0].quantity', issue: 'must be > 0' });
  });

  it('puts a missing required property before the properties present in the same object', () => {
    const error = invalidRequest(
      [
        { path: '/body/contact_id', message: 'must be integer', errorCode: 'type.openapi.validation' },
        { path: '/body/delivery_id', message: "must have required property 'delivery_id'", errorCode: 'required.openapi.validation' },
      ],
      { contact_id: 'x', items: [] },
      issue,
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: "Missing required parameter 'delivery_id'.",
      details: { field: 'delivery_id', issue: 'is required' },
    });
  });

  it('reads a key that holds a slash from its escaped JSON pointer', () => {
    const error = invalidRequest(
      [{ path: '/body/a~1b', message: 'must NOT have additional properties', errorCode: 'additionalProperties.openapi.validation' }],
      { 'a/b': 1 },
      issue,
    );
    expect(error.details).toEqual({ field: 'a/b', issue: 'is not a known property' });
  });

  it('reports path parameters before the body', () => {
    const error = invalidRequest(
      [
        { path: '/body/status', message: 'must be equal to one of the allowed values', errorCode: 'enum.openapi.validation' },
        { path: '/params/invoice_id', message: 'must be integer', errorCode: 'type.openapi.validation' },
      ],
      { status: 'nope' },
      operationTable.updateInvoice,
    );
    expect(error).toMatchObject({ message: "The path parameter 'invoice_id' must be a positive integer.", details: { field: 'invoice_id' } });
  });

  it('says which number format was broken', () => {
    const error = invalidRequest(
      [{ path: '/body/amount', message: 'must match format "decimal2"', errorCode: 'format.openapi.validation' }],
      { amount: 1.234 },
      operationTable.createInvoice,
    );
    expect(error.details).toEqual({ field: 'amount', issue: 'must have at most 2 decimals' });
  });
});
