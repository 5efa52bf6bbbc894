// Which searches answer their total as a sum of kept counts: those whose every criterion selects whole
// (status, currency) groups. Any other field or operator splits a group and is counted.
import { searchRules, type SearchableField } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import type { ParsedCriterion } from '@invoice-api/contract';
import { totalPlan } from '../../src/search/total-plan.js';

type Shape = Pick<ParsedCriterion, 'field' | 'operator'>;
const shape = (field: SearchableField, operator: Shape['operator']): Shape => ({ field, operator });

/** Every field and operator pair the spec allows. */
const allPairs: Shape[] = (Object.keys(searchRules.fields) as SearchableField[]).flatMap((field) =>
  searchRules.fields[field].operators.map((operator) => shape(field, operator)),
);

describe('totalPlan', () => {
  it('sums kept counts for a search without criteria (every group)', () => {
    expect(totalPlan([])).toBe('sum of kept counts');
  });

  it('sums kept counts for =, != and in on status and currency, alone and together', () => {
    for (const field of ['status', 'currency'] as const) {
      for (const operator of ['=', '!=', 'in'] as const) expect(totalPlan([shape(field, operator)]), `${field} ${operator}`).toBe('sum of kept counts');
    }
    expect(totalPlan([shape('status', 'in'), shape('currency', '!='), shape('status', '!='), shape('currency', '=')])).toBe('sum of kept counts');
  });

  it('counts every other field and operator the spec allows, alone and beside a status criterion', () => {
    const others = allPairs.filter((pair) => !['status', 'currency'].includes(pair.field));
    // The spec's list is what is checked: it must offer other pairs to check.
    expect(others.length).toBeGreaterThan(20);
    for (const pair of others) {
      expect(totalPlan([pair]), `${pair.field} ${pair.operator}`).toBe('count');
      expect(totalPlan([shape('status', '='), pair]), `status = and ${pair.field} ${pair.operator}`).toBe('count');
      expect(totalPlan([pair, shape('currency', 'in')]), `${pair.field} ${pair.operator} and currency in`).toBe('count');
    }
  });

  it('counts an operator on status or currency that would split a group', () => {
    for (const operator of ['like', 'between', '>', '<', '>=', '<='] as const) {
      expect(totalPlan([shape('currency', operator)]), `currency ${operator}`).toBe('count');
      expect(totalPlan([shape('status', operator)]), `status ${operator}`).toBe('count');
    }
  });

  it('sums kept counts for exactly the status and currency pairs the spec allows', () => {
    const summed = allPairs.filter((pair) => totalPlan([pair]) === 'sum of kept counts').map((pair) => `${pair.field} ${pair.operator}`);
    expect(summed.sort()).toEqual(['currency !=', 'currency =', 'currency in', 'status !=', 'status =', 'status in']);
  });
});
