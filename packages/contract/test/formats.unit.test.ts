// The format checks the response validators call are hand-written scanners and an arithmetic shortcut;
// here they meet their definitions on generated inputs: the regular expressions they replace (kept
// below as the reference), ajv-formats' `full` mode, and `decimalPlaces` on the number's string.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { decimalPlaces, isDate, isDateTime, numberFormats, withinPlacesByArithmetic } from '../src/formats.js';

// --- The reference: the regular-expression checks the scanners replace, unchanged. ---

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const isDayOfMonth = (year: number, month: number, day: number) =>
  month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS[month] ?? 0));

function referenceIsDate(text: string): boolean {
  const match = /^(\d\d\d\d)-(\d\d)-(\d\d)$/.exec(text);
  return match !== null && isDayOfMonth(Number(match[1]), Number(match[2]), Number(match[3]));
}

const dateTimePattern = /^(\d\d\d\d)-(\d\d)-(\d\d)[t\s](\d\d):(\d\d):(\d\d(?:\.\d+)?)(?:z|([+-])(\d\d)(?::?(\d\d))?)$/i;

function referenceIsDateTime(text: string): boolean {
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

/** ajv-formats' own function for a string format of its `full` mode. */
function ajvFormat(name: 'date' | 'date-time'): (text: string) => boolean {
  const format = fullFormats[name];
  if (typeof format !== 'object' || format instanceof RegExp || typeof format.validate !== 'function') {
    throw new Error(`ajv-formats' ${name} is not a function`);
  }
  return format.validate as (text: string) => boolean;
}

const ajvDate = ajvFormat('date');
const ajvDateTime = ajvFormat('date-time');

// --- Inputs. ---

/** A seeded generator (mulberry32), so that a failure shows up again on the next run. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = randomSource(20260314);
const below = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[below(items.length)] as T;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const digitString = (count: number) => Array.from({ length: count }, () => String(below(10))).join('');

// Years at the edges of the leap-year rule, and any other.
const years = () => pick([0, 4, 100, 400, 1900, 1970, 2000, 2016, 2023, 2024, 2025, 2026, 2100, 2400, 9996, 9999, below(10000)]);

function randomDate(): string {
  const month = random() < 0.85 ? 1 + below(12) : pick([0, 13, 19, 99]);
  // February's 28th to 30th and every month's last days, more often than their share.
  const day = random() < 0.4 ? pick([28, 29, 30, 31, 32]) : random() < 0.95 ? 1 + below(31) : pick([0, 99]);
  return `${pad(years(), 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

const separators = ['T', 't', ' ', 'T', 'T', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2003', '\u2028', '\u3000', '\ufeff', '\u180e', '\u200b', 'x', '_', '-'];

function randomOffset(): { text: string; sign: number; hours: number; minutes: number } {
  if (random() < 0.3) return { text: pick(['Z', 'z']), sign: 1, hours: 0, minutes: 0 };
  const sign = random() < 0.5 ? 1 : -1;
  const hours = random() < 0.9 ? below(24) : pick([24, 25, 99]);
  const minutes = random() < 0.9 ? pick([0, 30, 45, below(60)]) : pick([60, 99]);
  const hh = pad(hours, 2);
  const mm = pad(minutes, 2);
  const text = `${sign < 0 ? '-' : '+'}${pick([`${hh}:${mm}`, `${hh}${mm}`, hh])}`;
  return { text, sign, hours, minutes: text.length === 3 ? 0 : minutes };
}

function randomFraction(): string {
  const roll = random();
  if (roll < 0.4) return '';
  if (roll < 0.8) return `.${digitString(1 + below(9))}`;
  // Long fractions, nines among them: where Number() rounds a second up to the next.
  const length = 10 + below(12);
  return `.${random() < 0.5 ? '9'.repeat(length) : `${'9'.repeat(length)}${digitString(1 + below(6))}`}`;
}

function randomDateTime(): string {
  const offset = randomOffset();
  let time: string;
  if (random() < 0.3) {
    // A second 60 at 23:59 UTC seen from this offset, or a minute or an hour beside it.
    const utcMinutes = 23 * 60 + 59 + pick([0, 0, 0, -1, 1, -60, 60]);
    const local = utcMinutes + offset.sign * (offset.hours * 60 + offset.minutes);
    const hour = Math.floor(local / 60);
    const minute = local - hour * 60;
    const shownHour = random() < 0.7 ? (hour + 24) % 24 : hour;
    time = `${pad(Math.abs(shownHour) % 100, 2)}:${pad(minute, 2)}:${pick(['60', '60', '59', '61'])}`;
  } else {
    const hour = random() < 0.9 ? below(24) : pick([24, 25, 99]);
    const minute = random() < 0.9 ? below(60) : pick([60, 99]);
    const second = random() < 0.8 ? below(60) : pick([59, 60, 61, 99]);
    time = `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`;
  }
  return `${randomDate()}${pick(separators)}${time}${randomFraction()}${offset.text}`;
}

// Characters that sit in these strings, that `\d` or `\s` might be mistaken to match, and others.
const replacements = [...'0123456789-:.+TtZzEe x/_', '\t', '\u00a0', '\u2028', '\u0660', '\uff10', '\ud83d', '\u0000', '\u00bd'];

/** The string with each position replaced, removed or doubled, cut at each length, and extended. */
function mutations(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at <= text.length; at++) {
    out.push(text.slice(0, at));
    out.push(text.slice(0, at) + pick(replacements) + text.slice(at));
    if (at < text.length) {
      out.push(text.slice(0, at) + pick(replacements) + text.slice(at + 1));
      out.push(text.slice(0, at) + text.slice(at + 1));
    }
  }
  out.push(`${text}${pick(replacements)}`, `${text}0`, `${text}Z`, `${text}:00`, ` ${text}`, `${text}\n`);
  return out;
}

interface Disagreement {
  text: string;
  ours: boolean;
  reference: boolean;
  ajv: boolean;
}

/** The inputs on which the three checks do not agree, and how many each accepted. */
function compare(inputs: Iterable<string>, ours: (text: string) => boolean, reference: (text: string) => boolean, ajv: (text: string) => boolean) {
  const disagreements: Disagreement[] = [];
  let accepted = 0;
  let rejected = 0;
  for (const text of inputs) {
    const result = { text, ours: ours(text), reference: reference(text), ajv: ajv(text) };
    if (result.ours !== result.reference || result.ours !== result.ajv) disagreements.push(result);
    if (result.reference) accepted++;
    else rejected++;
  }
  return { disagreements: disagreements.slice(0, 20), accepted, rejected };
}

/** Each text with the code unit at each position replaced by every `step(position)`-th code unit. */
function characterSubstitutions(texts: readonly string[], step: (position: number) => number): string[] {
  const inputs: string[] = [];
  for (const text of texts) {
    for (let at = 0; at < text.length; at++) {
      for (let code = 0; code < 0x10000; code += step(at)) inputs.push(text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1));
    }
  }
  return inputs;
}

describe('isDate', () => {
  it('agrees with its regular expression and with ajv-formats on random and mutated dates', () => {
    const inputs: string[] = ['2026-03-14', '2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2026-02-30', '0000-02-29', '9999-12-31'];
    for (let i = 0; i < 20_000; i++) {
      const date = randomDate();
      inputs.push(date, ...(i % 4 === 0 ? mutations(date) : []));
    }
    const { disagreements, accepted, rejected } = compare(inputs, isDate, referenceIsDate, ajvDate);
    expect(disagreements).toEqual([]);
    expect(accepted).toBeGreaterThan(10_000);
    expect(rejected).toBeGreaterThan(10_000);
  });

  it('agrees on every character at every position of a valid date', () => {
    const inputs = characterSubstitutions(['2024-02-29', '2026-12-31'], (at) => (at % 2 === 0 ? 1 : 7));
    expect(compare(inputs, isDate, referenceIsDate, ajvDate).disagreements).toEqual([]);
  });
});

describe('isDateTime', () => {
  it('agrees with its regular expression and with ajv-formats on random and mutated date-times', () => {
    const inputs: string[] = [
      '2026-03-14T09:26:53.589Z',
      '2026-03-14t09:26:53z',
      '2026-03-14 09:26:53+01:00',
      '2016-12-31T23:59:60Z',
      '2016-12-31T23:59:60.999Z',
      '2016-12-31T22:59:60-01:00',
      '2017-01-01T00:59:60+01:00',
      '2017-01-01T00:29:60+0030',
      '2017-01-01T00:59:60+01',
      '2026-11-23T23:59:60+00:00',
      '2026-11-23T23:59:59.99999999999999Z',
      '2026-11-23T23:59:59.999999999999999Z',
      '2026-11-23T10:00:59.999999999999999Z',
      '2026-11-23T23:59:60.999999999999999Z',
      '2026-11-23T23:59:60.99999999999999Z',
      '2026-11-23T23:59:59.999999999999996447286321199499070644378662109375Z',
      '2026-11-23T23:59:59.999999999999996447286321199499070644378662109374Z',
      '2026-11-23T23:59:60.999999999999996447286321199499070644378662109375Z',
      '2026-11-23T23:59:60.999999999999996447286321199499070644378662109374Z',
      `2026-11-23T10:00:00.${'1'.repeat(400)}Z`,
    ];
    for (let i = 0; i < 30_000; i++) {
      const dateTime = randomDateTime();
      inputs.push(dateTime, ...(i % 10 === 0 ? mutations(dateTime) : []));
    }
    const { disagreements, accepted, rejected } = compare(inputs, isDateTime, referenceIsDateTime, ajvDateTime);
    expect(disagreements).toEqual([]);
    expect(accepted).toBeGreaterThan(10_000);
    expect(rejected).toBeGreaterThan(10_000);
  });

  it('agrees on every character at every position of valid date-times', () => {
    // Every code unit as the separator, where `\s` is; a sample of them elsewhere.
    const inputs = characterSubstitutions(['2024-02-29T23:59:60.5Z', '2016-12-31T22:59:60-01:00', '2026-03-14T09:26:53+0100'], (at) => (at === 10 ? 1 : 13));
    expect(compare(inputs, isDateTime, referenceIsDateTime, ajvDateTime).disagreements).toEqual([]);
  });
});

describe('decimal formats', () => {
  const formats = numberFormats.map((format) => ({ format, places: Number(format.name.slice('decimal'.length)) }));
  const referenceValidate = (value: number, places: number) => Number.isFinite(value) && decimalPlaces(value) <= places;

  /** The neighbouring double above (`step` 1) or below (-1), by its bits. */
  function neighbour(value: number, step: 1 | -1): number {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    view.setBigInt64(0, view.getBigInt64(0) + BigInt(value < 0 ? -step : step));
    return view.getFloat64(0);
  }

  /** Decimals written with 0 to 6 places at magnitudes from 1e-7 to 1e22, negative ones too. */
  function randomDecimal(): { value: number; places: number } {
    const places = below(7);
    const integerDigits = below(18);
    const fraction = digitString(places);
    const text = `${random() < 0.3 ? '-' : ''}${integerDigits === 0 ? '0' : digitString(integerDigits)}${places ? `.${fraction}` : ''}`;
    const value = random() < 0.8 ? Number(text) : Number(`${text}e${below(30) - 15}`);
    return { value, places };
  }

  function samples(): number[] {
    const values: number[] = [
      0,
      -0,
      1234.56,
      19.99,
      19.999,
      0.07,
      0.1 + 0.2,
      0.3,
      1.005,
      1e-7,
      1.25e-5,
      1e-4,
      1e-5,
      1e21,
      1e22,
      -1e21,
      1.5e21,
      999999999999.99,
      2 ** 53,
      2 ** 53 - 1,
      2 ** 53 + 2,
      -(2 ** 53),
      2 ** 53 / 100,
      2 ** 51 / 100,
      Number.MAX_SAFE_INTEGER / 10_000,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      2.2250738585072014e-308,
      Number.EPSILON,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    for (let i = 0; i < 40_000; i++) {
      const { value } = randomDecimal();
      values.push(value);
      if (i % 8 === 0) values.push(neighbour(value, 1), neighbour(value, -1));
    }
    for (let i = 0; i < 5_000; i++) {
      // Sums, products and quotients of amounts, as a service computes them; plain random doubles.
      const a = Math.round(random() * 1e6) / 100;
      const b = Math.round(random() * 1e4) / 1000;
      values.push(a + b, a - b, a * b, a / 3, random() * 10 ** (below(30) - 10));
      // Integers and halves about 2^53 and about 2^53 / 10^places.
      const near = pick([2 ** 53, 2 ** 52, 2 ** 53 / 100, 2 ** 53 / 1000, 2 ** 53 / 10_000, 2 ** 51 / 100]);
      const offset = below(2001) - 1000;
      values.push(near + offset, near + offset + 0.5, -(near + offset), (near + offset) / 100);
    }
    return values;
  }

  it('agree with decimalPlaces on the shortest decimal form', () => {
    const disagreements: Array<{ value: number; text: string; format: string; ours: boolean }> = [];
    let accepted = 0;
    for (const value of samples()) {
      for (const { format, places } of formats) {
        const ours = format.validate(value);
        const reference = referenceValidate(value, places);
        if (ours !== reference) disagreements.push({ value, text: String(value), format: format.name, ours });
        if (reference) accepted++;
      }
    }
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(accepted).toBeGreaterThan(30_000);
  });

  it('answer true by arithmetic only where decimalPlaces agrees, at 0 to 4 places', () => {
    const wrong: Array<{ value: number; places: number }> = [];
    for (const value of samples()) {
      for (let places = 0; places <= 4; places++) {
        if (withinPlacesByArithmetic(value, places) && !referenceValidate(value, places)) wrong.push({ value, places });
      }
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it('answer by arithmetic, without the string, for every decimal of at most that many places below 2^51 in units of the last place', () => {
    const missed: Array<{ value: number; places: number }> = [];
    let tried = 0;
    for (let i = 0; i < 40_000; i++) {
      const places = below(5);
      const scaled = Math.floor(random() * 10 ** (1 + below(15))) * (random() < 0.3 ? -1 : 1);
      if (Math.abs(scaled) >= 2 ** 51) continue;
      const value = Number(`${scaled}e-${places}`);
      tried++;
      for (let wider = places; wider <= 4 && Math.abs(scaled) * 10 ** (wider - places) < 2 ** 51; wider++) {
        if (!withinPlacesByArithmetic(value, wider)) missed.push({ value, places: wider });
      }
    }
    for (const value of [1234.56, 19.99, 0.07, 0.3, -0, 999999999999.99]) if (!withinPlacesByArithmetic(value, 2)) missed.push({ value, places: 2 });
    expect(missed.slice(0, 20)).toEqual([]);
    expect(tried).toBeGreaterThan(30_000);
  });
});
