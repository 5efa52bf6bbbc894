// The string and number formats the generated response validators call at run time, by name
// (`formats.date`, ...). The standard ones behave as ajv-formats' `full` mode, which the service's
// validator uses (a test compares them on the same inputs); the spec's own number formats are the
// contract's. Kept here rather than importing ajv-formats so that the client needs no Ajv package at
// run time. A format the spec starts to use and this table lacks fails a test of the client.
import { numberFormats } from '@invoice-api/contract';

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

export const responseFormats: Readonly<Record<string, FormatCheck>> = {
  date: { type: 'string', validate: isDate },
  'date-time': { type: 'string', validate: isDateTime },
  email: { type: 'string', validate: (text: string) => emailPattern.test(text) },
  ...Object.fromEntries(numberFormats.map(({ name, type, validate }) => [name, { type, validate }])),
};
