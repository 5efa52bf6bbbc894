// What the search form sends for what a user typed (no browser needed).
import { describe, expect, it } from 'vitest';
import { searchRules } from '@invoice-api/contract';
import { operatorsOf, searchableFields, toCriterion, valueHint } from '../src/criteria.js';

describe('search criteria from the form', () => {
  it('offers exactly the fields and operators of the spec', () => {
    expect(searchableFields).toEqual(Object.keys(searchRules.fields));
    for (const field of searchableFields) expect(operatorsOf(field)).toEqual(searchRules.fields[field].operators);
  });

  it('sends numbers for numeric fields and text for the others', () => {
    expect(toCriterion({ field: 'amount', operator: '>', value: ' 1000.50 ' })).toEqual({ field: 'amount', operator: '>', value: 1000.5 });
    expect(toCriterion({ field: 'client_id', operator: '=', value: '7' })).toEqual({ field: 'client_id', operator: '=', value: 7 });
    expect(toCriterion({ field: 'invoice_number', operator: '=', value: '1043' })).toEqual({ field: 'invoice_number', operator: '=', value: '1043' });
    expect(toCriterion({ field: 'due_date', operator: '<', value: '2026-03-31' })).toEqual({ field: 'due_date', operator: '<', value: '2026-03-31' });
  });

  it('sends a value that is not a number as typed, for the API to explain', () => {
    expect(toCriterion({ field: 'amount', operator: '>', value: 'a lot' })).toEqual({ field: 'amount', operator: '>', value: 'a lot' });
    expect(toCriterion({ field: 'amount', operator: '>', value: '1e3' })).toEqual({ field: 'amount', operator: '>', value: '1e3' });
  });

  it('splits `in` and `between` on commas, each part typed like the field', () => {
    expect(toCriterion({ field: 'amount', operator: 'between', value: '100, 200.5' })).toEqual({ field: 'amount', operator: 'between', value: [100, 200.5] });
    expect(toCriterion({ field: 'status', operator: 'in', value: 'paid,sent' })).toEqual({ field: 'status', operator: 'in', value: ['paid', 'sent'] });
  });

  it('keeps the spaces of a `like` value: they are part of the substring', () => {
    expect(toCriterion({ field: 'description', operator: 'like', value: ' audit ' })).toEqual({ field: 'description', operator: 'like', value: ' audit ' });
  });

  it('hints at two values for `between` and a list for `in`', () => {
    expect(valueHint('due_date', 'between')).toBe('2026-03-31, 2026-03-31');
    expect(valueHint('currency', 'in')).toBe('CHF, ...');
    expect(valueHint('amount', '>')).toBe('1000.50');
  });
});
