import { describe, expect, it } from 'vitest';
import { parseDate, parseInt8, parseNumeric, parseTimestamp } from '../../src/db/type-parsers.js';

describe('type parsers', () => {
  it('turns int8 text into a number and refuses what a double cannot hold', () => {
    expect(parseInt8('42')).toBe(42);
    expect(parseInt8('-9007199254740991')).toBe(-9007199254740991);
    expect(() => parseInt8('9007199254740992')).toThrow(RangeError);
  });

  it('keeps numeric and date text as sent', () => {
    expect(parseNumeric('0.10')).toBe('0.10');
    expect(parseDate('2024-02-29')).toBe('2024-02-29');
  });

  it.each([
    ['2026-03-01 09:30:00.123+00', '2026-03-01T09:30:00.123Z'],
    ['2026-03-01 09:30:00+00', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01 11:30:00.5+02', '2026-03-01T09:30:00.500Z'],
    ['2026-03-01 15:00:00+05:30', '2026-03-01T09:30:00.000Z'],
    ['2026-03-01 06:30:00-03', '2026-03-01T09:30:00.000Z'],
    ['1900-01-01 00:00:00+00:09:21', '1899-12-31T23:50:39.000Z'],
    ['2026-03-01 09:30:00.123', '2026-03-01T09:30:00.123Z'],
  ])('reads timestamp %s as %s', (text, iso) => {
    expect(parseTimestamp(text)).toBe(iso);
  });

  it('refuses timestamp text it does not understand', () => {
    expect(() => parseTimestamp('infinity')).toThrow(RangeError);
  });
});
