// What a criterion's value must look like, per value type of the allow-list (`searchRules.fields[f].type`).
// The status list and the currency pattern are read from the spec's own schemas, not typed again.
import { loadSpec, type InvoiceStatus, searchRules } from '@invoice-api/contract';

export type ValueType = (typeof searchRules.fields)[keyof typeof searchRules.fields]['type'];
/** A checked value, ready to be a query parameter: numbers stay numbers, dates canonical strings. */
export type SearchValue = number | string;

interface SchemaFragment {
  enum?: unknown[];
  pattern?: string;
}

function schema(name: string): SchemaFragment {
  return (loadSpec().components.schemas?.[name] ?? {}) as SchemaFragment;
}

const invoiceStatuses = new Set((schema('InvoiceStatus').enum ?? []) as InvoiceStatus[]);
const currencyPattern = new RegExp(schema('CurrencyCode').pattern ?? '^[A-Z]{3}$');

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/i;

function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/** `YYYY-MM-DD` naming a real calendar day. */
function parseDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = datePattern.exec(value);
  return match && isCalendarDate(match[1]!, match[2]!, match[3]!) ? value : undefined;
}

/**
 * An ISO 8601 timestamp with a zone (`Z` or `±HH:MM`), or a date meaning 00:00:00Z of that day, as
 * the canonical `YYYY-MM-DDTHH:mm:ss.sssZ` the database compares with millisecond precision.
 */
function parseDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const date = parseDate(value);
  if (date !== undefined) return `${date}T00:00:00.000Z`;
  const match = dateTimePattern.exec(value);
  if (!match || !isCalendarDate(match[1]!, match[2]!, match[3]!)) return undefined;
  if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return undefined;
  const milliseconds = Date.parse(value);
  return Number.isNaN(milliseconds) ? undefined : new Date(milliseconds).toISOString();
}

interface ValueTypeRule {
  /** Returns the canonical value, or undefined when `value` is not of this type. */
  parse(value: unknown): SearchValue | undefined;
  /** For messages: "an integer", "a date (YYYY-MM-DD)". */
  describe: string;
  /** Orders two parsed values, for `between`'s low <= high. */
  compare(low: SearchValue, high: SearchValue): number;
}

const byNumber = (low: SearchValue, high: SearchValue): number => Number(low) - Number(high);
const byCodePoint = (low: SearchValue, high: SearchValue): number => (low < high ? -1 : low > high ? 1 : 0);

export const valueTypes: Readonly<Record<ValueType, ValueTypeRule>> = {
  integer: {
    parse: (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined),
    describe: 'an integer',
    compare: byNumber,
  },
  number: {
    parse: (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined),
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
    parse: (value) => (typeof value === 'string' && invoiceStatuses.has(value as InvoiceStatus) ? value : undefined),
    describe: `an invoice status (${[...invoiceStatuses].join(', ')})`,
    compare: byCodePoint,
  },
  currency: {
    parse: (value) => (typeof value === 'string' && currencyPattern.test(value) ? value : undefined),
    describe: 'a three-letter currency code',
    compare: byCodePoint,
  },
  string: {
    parse: (value) => (typeof value === 'string' ? value : undefined),
    describe: 'a string',
    compare: byCodePoint,
  },
};
