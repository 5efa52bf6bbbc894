import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { exact, lineTotal, maxMoney, priceLines, sameAmount, toApiNumber } from '../../src/domain/money.js';

describe('money', () => {
  it('multiplies exactly where binary floats would drift', () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(lineTotal(3, 0.1).toFixed(2)).toBe('0.30');
    expect(lineTotal(0.07, 100).toFixed(2)).toBe('7.00');
  });

  it('rounds each line half-up to 2 decimals', () => {
    expect(lineTotal(1.5, 19.99).toFixed(2)).toBe('29.99'); // 29.985
    expect(lineTotal(1, 1.005).toFixed(2)).toBe('1.01'); // a float would say 1.00
    expect(lineTotal(1, 2.0049).toFixed(2)).toBe('2.00');
    expect(lineTotal(0.001, 4.9999).toFixed(2)).toBe('0.00');
    expect(lineTotal(3, 0.0015).toFixed(2)).toBe('0.00'); // 0.0045
    expect(lineTotal(3, 0.0017).toFixed(2)).toBe('0.01'); // 0.0051
  });

  it('sums the rounded line totals, so the lines add up to the total', () => {
    // Each line is 0.005 before rounding: 0.01 each, three of them 0.03 (not round(0.015) = 0.02).
    const priced = priceLines([
      { item_id: 1, quantity: 1, unit_price: 0.005 },
      { item_id: 2, quantity: 1, unit_price: 0.005 },
      { item_id: 3, quantity: 1, unit_price: 0.005 },
    ]);
    expect(priced.lines.map((line) => line.total)).toEqual(['0.01', '0.01', '0.01']);
    expect(priced.totalAmount).toBe('0.03');
  });

  it('keeps the exact quantity and unit price text', () => {
    const priced = priceLines([{ item_id: 7, quantity: 2.125, unit_price: 10.0001 }]);
    expect(priced.lines).toEqual([{ item_id: 7, quantity: '2.125', unit_price: '10.0001', total: '21.25' }]);
  });

  it('gives 0.00 for no lines', () => {
    expect(priceLines([]).totalAmount).toBe('0.00');
  });

  it('accepts a total of exactly 999,999,999,999.99 and rejects a cent more, naming items', () => {
    expect(priceLines([{ item_id: 1, quantity: 1000, unit_price: 999999999.9999 }]).totalAmount).toBe('999999999999.90');
    expect(
      priceLines([
        { item_id: 1, quantity: 1000, unit_price: 999999999.9999 },
        { item_id: 2, quantity: 1, unit_price: 0.09 },
      ]).totalAmount,
    ).toBe(maxMoney.toFixed(2));
    let failure: unknown;
    try {
      priceLines([
        { item_id: 1, quantity: 1000, unit_price: 999999999.9999 },
        { item_id: 2, quantity: 1, unit_price: 0.1 },
      ]);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 400, code: 'invalid_request', details: { field: 'items' } });
  });

  it('rejects a single line above the ceiling (999,999.999 x 999,999,999.9999)', () => {
    expect(() => priceLines([{ item_id: 1, quantity: 999999.999, unit_price: 999999999.9999 }])).toThrow(ApiError);
  });

  it('compares amounts by value and converts stored text to exact JSON numbers', () => {
    expect(sameAmount('19.90', 19.9)).toBe(true);
    expect(sameAmount('19.90', 19.91)).toBe(false);
    expect(toApiNumber('999999999999.99')).toBe(999999999999.99);
    expect(JSON.stringify(toApiNumber('0.10'))).toBe('0.1');
    expect(exact('0.1').plus(exact('0.2')).toString()).toBe('0.3');
  });
});
