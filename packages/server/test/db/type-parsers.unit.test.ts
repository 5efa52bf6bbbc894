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

  it('reads the UTC text of the service sessions exactly as the general path does (fraction of 0 to 6 digits)', () => {
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let sample = 0; sample < 2_000; sample += 1) {
      const iso = new Date(Math.floor(random() * 8_000_000_000_000) - 1_000_000_000_000).toISOString();
      const digits = Math.floor(random() * 7);
      const fraction = `${iso.slice(20, 23)}${String(Math.floor(random() * 1000)).padStart(3, '0')}`.slice(0, digits).replace(/0+$/, '');
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction === '' ? '' : `.${fraction}`}+00`;
      // `+00:00` is the same instant, written so that only the general path reads it.
      expect(parseTimestamp(text), text).toBe(parseTimestamp(text.replace(/\+00$/, '+00:00')));
    }
  });

  it('refuses timestamp text it does not understand', () => {
    expect(() => parseTimestamp('infinity')).toThrow(RangeError);
  });
});
