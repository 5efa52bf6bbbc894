// The formats the spec's schemas use, as the generated response validators call them by name
// (`formats.date`, ...): the client's `validateResponses` and the service's check of its own answers.
// The spec's custom number formats: JSON Schema's `multipleOf: 0.01` fails on binary floats (Ajv
// rejects 19.99), so decimal places are checked on the number's shortest decimal form instead. The
// standard string formats behave as ajv-formats' `full` mode, which the service's request validator
// uses (tests of the client and of this package compare them on the same inputs); written here so
// that neither the client nor the answers' check needs an Ajv package at run time. A format the spec
// starts to use and this table lacks fails a test of the client.

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

/**
 * Whether the shortest decimal form of `value` has at most `places` (0 to 4) decimal places, when
 * arithmetic can prove it without writing the string; false means "not proven": `decimalPlaces` decides.
 *
 * A true is exact. `scaled` (an integer below 2^53) and `10 ** places` are exact doubles and IEEE 754
 * division is correctly rounded, so `scaled / 10 ** places` is the double nearest the decimal
 * d = scaled / 10^places. When that double is `value`, d reads back as `value`. `String(value)` writes
 * the decimal with the fewest significant digits that reads back as `value`, so no more digits than d,
 * and not at a smaller magnitude (a power of ten between the two would read back as `value` too, making
 * the shortest form one digit, and a one-digit form below that power lies 10 % or more below d, farther
 * than any double's rounding interval reaches at d's size, 10^-places or more): hence no more decimal
 * places than d. How `value * 10 ** places` rounds only chooses the candidate d.
 */
export function withinPlacesByArithmetic(value: number, places: number): boolean {
  const scale = 10 ** places;
  const scaled = Math.round(value * scale);
  return Math.abs(scaled) < 2 ** 53 && scaled / scale === value;
}

function maxDecimals(name: string, places: number): NumberFormat {
  return {
    name,
    type: 'number',
    validate: (value) => Number.isFinite(value) && (withinPlacesByArithmetic(value, places) || decimalPlaces(value) <= places),
  };
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

// The date and date-time checks scan character codes instead of matching a regular expression with
// capture groups: every row of a list answer carries two timestamps and a date, and a match array,
// its substrings and their Number() conversions cost more than the check itself. They accept exactly
// what these expressions (ajv-formats' `full` mode) accept; test/formats.unit.test.ts compares them on
// generated inputs:
//   date       /^(\d\d\d\d)-(\d\d)-(\d\d)$/
//   date-time  /^(\d\d\d\d)-(\d\d)-(\d\d)[t\s](\d\d):(\d\d):(\d\d(?:\.\d+)?)(?:z|([+-])(\d\d)(?::?(\d\d))?)$/i

const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;
const UPPER_T = 0x54;
const LOWER_T = 0x74;
const UPPER_Z = 0x5a;
const LOWER_Z = 0x7a;

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** The number the two characters at `at` write, or -1 unless both are ASCII digits (past the end: NaN, so -1). */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 0x30;
  const ones = text.charCodeAt(at + 1) - 0x30;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

/** What `\s` matches in a regular expression: ECMAScript's white space and line terminators. */
const isRegExpSpace = (code: number) =>
  code === 0x20 ||
  (code >= 0x09 && code <= 0x0d) ||
  code === 0xa0 ||
  code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x202f ||
  code === 0x205f ||
  code === 0x3000 ||
  code === 0xfeff;

/** `YYYY-MM-DD` in the first ten characters of `text`, naming a day that exists. */
function startsWithDate(text: string): boolean {
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  return (
    century >= 0 &&
    yearOfCentury >= 0 &&
    text.charCodeAt(4) === DASH &&
    text.charCodeAt(7) === DASH &&
    month >= 0 &&
    day >= 0 &&
    isDayOfMonth(century * 100 + yearOfCentury, month, day)
  );
}

/** RFC 3339 full-date with a day that exists in its month. */
export function isDate(text: string): boolean {
  return text.length === 10 && startsWithDate(text);
}

/** RFC 3339 date-time: a date that exists, `T` (or a space), a time with a required offset; 23:59:60 only where it is a leap second in UTC. */
export function isDateTime(text: string): boolean {
  const length = text.length;
  // The shortest form: `YYYY-MM-DDTHH:MM:SSZ`.
  if (length < 20 || !startsWithDate(text)) return false;
  const separator = text.charCodeAt(10);
  if (separator !== UPPER_T && separator !== LOWER_T && !isRegExpSpace(separator)) return false;
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const wholeSecond = twoDigits(text, 17);
  if (hour < 0 || minute < 0 || wholeSecond < 0 || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return false;

  let at = 19;
  if (text.charCodeAt(at) === DOT) {
    at++;
    while (isDigit(text.charCodeAt(at))) at++;
    if (at === 20) return false;
  }
  const secondEnd = at;

  let sign = 1;
  let offsetHours = 0;
  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === UPPER_Z || zone === LOWER_Z) {
    if (length !== at + 1) return false;
  } else if (zone === PLUS || zone === DASH) {
    if (zone === DASH) sign = -1;
    offsetHours = twoDigits(text, at + 1);
    // `+HH`, `+HHMM` or `+HH:MM`, nothing after.
    const rest = length - (at + 3);
    if (rest === 2) offsetMinutes = twoDigits(text, at + 3);
    else if (rest === 3 && text.charCodeAt(at + 3) === COLON) offsetMinutes = twoDigits(text, at + 4);
    else if (rest !== 0) return false;
    if (offsetHours < 0 || offsetMinutes < 0) return false;
  } else return false;
  if (offsetHours > 23 || offsetMinutes > 59) return false;

  // The seconds as Number() reads them. With a fraction the value lies at or above the whole second
  // and below the next, so comparisons with 60 and 61 only need the whole second, unless Number()
  // rounds the value up to the next whole second. That changes a comparison only at 59 or 60, and
  // takes a fraction within 2^-48 of 1 (half the spacing of doubles there, 2^-47), which needs 15 or
  // more digits (14 nines are 1e-14 short of 1); only such a fraction is read with Number().
  const second = secondEnd - 20 >= 15 && (wholeSecond === 59 || wholeSecond === 60) ? Number(text.slice(17, secondEnd)) : wholeSecond;
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
