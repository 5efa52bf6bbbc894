// The formats the spec's schemas use, as the generated response validators call them by name
// (`formats.date`, ...): the client's `validateResponses` and the service's check of its own answers.
// The spec's custom number formats: JSON Schema's `multipleOf: 0.01` fails on binary floats (Ajv
// rejects 19.99), so decimal places are checked on the number's shortest decimal form instead. The
// standard string formats behave as ajv-formats' `full` mode, which the service's request validator
// uses (a test of the client compares them on the same inputs); written here so that neither the
// client nor the answers' check needs an Ajv package at run time. A format the spec starts to use and
// this table lacks fails a test of the client.

/** Number of decimal places in the shortest decimal form of `value` (19.99 -> 2, 1e-7 -> 7). */
export function decimalPlaces(value: number): number {
  const match = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) return Number.POSITIVE_INFINITY;
  const fraction = match[1]?.length ?? 0;
  const exponent = Number(match[2] ?? 0);
  return Math.max(0, fraction - exponent);
}

export interface NumberFormat {
  name: string;
  type: 'number';
  validate: (value: number) => boolean;
}

function maxDecimals(name: string, places: number): NumberFormat {
  return { name, type: 'number', validate: (value) => Number.isFinite(value) && decimalPlaces(value) <= places };
}

/** `decimal2` money, `decimal3` quantities, `decimal4` unit prices. */
export const numberFormats: readonly NumberFormat[] = [maxDecimals('decimal2', 2), maxDecimals('decimal3', 3), maxDecimals('decimal4', 4)];

export interface FormatCheck {
  type: 'string' | 'number';
  validate: (value: never) => boolean;
}

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

const isDayOfMonth = (year: number, month: number, day: number) =>
  month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS[month] ?? 0));

/** RFC 3339 full-date with a day that exists in its month. */
export function isDate(text: string): boolean {
  const match = /^(\d\d\d\d)-(\d\d)-(\d\d)$/.exec(text);
  return match !== null && isDayOfMonth(Number(match[1]), Number(match[2]), Number(match[3]));
}

// One expression for the whole date-time, where ajv-formats splits the string and matches twice:
// every row of a list answer carries two timestamps.
const dateTimePattern = /^(\d\d\d\d)-(\d\d)-(\d\d)[t\s](\d\d):(\d\d):(\d\d(?:\.\d+)?)(?:z|([+-])(\d\d)(?::?(\d\d))?)$/i;

/** RFC 3339 date-time: a date that exists, `T` (or a space), a time with a required offset; 23:59:60 only where it is a leap second in UTC. */
export function isDateTime(text: string): boolean {
  const match = dateTimePattern.exec(text);
  if (!match || !isDayOfMonth(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  const sign = match[7] === '-' ? -1 : 1;
  const [offsetHours, offsetMinutes] = [Number(match[8] ?? 0), Number(match[9] ?? 0)];
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const utcMinute = minute - offsetMinutes * sign;
  const utcHour = hour - offsetHours * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

const emailPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** Every format by the name the spec gives it. */
export const responseFormats: Readonly<Record<string, FormatCheck>> = {
  date: { type: 'string', validate: isDate },
  'date-time': { type: 'string', validate: isDateTime },
  email: { type: 'string', validate: (text: string) => emailPattern.test(text) },
  ...Object.fromEntries(numberFormats.map(({ name, type, validate }) => [name, { type, validate }])),
};
