// What a criterion's value must look like, per value type (`searchRules.fields[f].type`). Every fact
// (integer bounds, the statuses, the currency and timestamp patterns, the text length) comes from the
// generated rules, that is from the spec's value schemas, so the service refuses exactly what the
// schema refuses. What is code here is what a schema does not say: turning a value into the canonical
// form the database compares, and ordering two values for `between`.
import { searchRules } from '../../generated/search-rules.js';

export type ValueType = (typeof searchRules.fields)[keyof typeof searchRules.fields]['type'];
/** A checked value, ready to be a query parameter: numbers stay numbers, dates canonical strings. */
export type SearchValue = number | string;

const facts = searchRules.valueTypes;
const invoiceStatuses: ReadonlySet<unknown> = new Set(facts.status.enum);
const currencyPattern = new RegExp(facts.currency.pattern, 'u');
const dateTimePattern = new RegExp(facts['date-time'].pattern, 'u');
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** `YYYY-MM-DD` naming a real calendar day: JSON Schema's `format: date`, as Ajv checks it. */
function parseDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = datePattern.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return daysInMonth !== undefined && day >= 1 && day <= daysInMonth ? value : undefined;
}

/**
 * A value the spec's timestamp pattern accepts (a date, or a timestamp with a zone), as the canonical
 * `YYYY-MM-DDTHH:mm:ss.sssZ` the database compares with millisecond precision; a date means 00:00:00Z.
 */
function parseDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || !dateTimePattern.test(value)) return undefined;
  if (datePattern.test(value)) return `${value}T00:00:00.000Z`;
  const milliseconds = Date.parse(value);
  return Number.isNaN(milliseconds) ? undefined : new Date(milliseconds).toISOString();
}

function inRange(value: number, range: { minimum: number; maximum: number }): boolean {
  return value >= range.minimum && value <= range.maximum;
}

/** Length as JSON Schema counts it: in code points. */
function codePoints(text: string): number {
  // A string has at most as many code points as UTF-16 units: short ones need no walk.
  if (text.length <= textMaxLength) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

interface ValueTypeRule {
  /** Returns the canonical value, or undefined when `value` is not of this type. */
  parse(value: unknown): SearchValue | undefined;
  /** For messages: "an integer", "a date (YYYY-MM-DD)". */
  describe: string;
  /** A more precise issue than "must be <describe>" for a value of the right JSON type, if any. */
  issue?(value: unknown): string | undefined;
  /** Orders two parsed values, for `between`'s low <= high. */
  compare(low: SearchValue, high: SearchValue): number;
}

const byNumber = (low: SearchValue, high: SearchValue): number => Number(low) - Number(high);
const byCodePoint = (low: SearchValue, high: SearchValue): number => (low < high ? -1 : low > high ? 1 : 0);
const textMaxLength = facts.string.maxLength;

export const valueTypes: Readonly<Record<ValueType, ValueTypeRule>> = {
  integer: {
    parse: (value) => (typeof value === 'number' && Number.isInteger(value) && inRange(value, facts.integer) ? value : undefined),
    describe: 'an integer',
    compare: byNumber,
  },
  number: {
    parse: (value) => (typeof value === 'number' && Number.isFinite(value) && inRange(value, facts.number) ? value : undefined),
    describe: 'a number',
    compare: byNumber,
  },
  date: { parse: parseDate, describe: 'a date (YYYY-MM-DD)', compare: byCodePoint },
  'date-time': {
    parse: parseDateTime,
    describe: 'an ISO 8601 timestamp or a date (YYYY-MM-DD)',
    // Canonical UTC strings of the same length order like the instants they name.
    compare: byCodePoint,
  },
  status: {
    parse: (value) => (invoiceStatuses.has(value) ? (value as string) : undefined),
    describe: `an invoice status (${facts.status.enum.join(', ')})`,
    compare: byCodePoint,
  },
  currency: {
    parse: (value) => (typeof value === 'string' && currencyPattern.test(value) ? value : undefined),
    describe: 'a three-letter currency code',
    compare: byCodePoint,
  },
  string: {
    parse: (value) => (typeof value === 'string' && codePoints(value) <= textMaxLength ? value : undefined),
    describe: `a string of at most ${textMaxLength} characters`,
    // The validator's own words for this one, so the issue reads the same from either checker.
    issue: (value) => (typeof value === 'string' && codePoints(value) > textMaxLength ? `must NOT have more than ${textMaxLength} characters` : undefined),
    compare: byCodePoint,
  },
};
