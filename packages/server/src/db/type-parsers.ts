// The one place where PostgreSQL values become JavaScript values, for both engines. Rows then match
// the API's types without further mapping: ids and counts are numbers, money stays an exact decimal
// string, dates are plain `YYYY-MM-DD`, timestamps are ISO 8601 UTC strings with milliseconds.

/** PostgreSQL type OIDs (pg_type.oid), the same on every server version. */
export const typeOids = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
} as const;

/** int8 (bigint, bigserial, count(*)) to number: refuses values a double cannot hold exactly. */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is outside the safe integer range`);
  return value;
}

/** numeric stays text: binary floats would lose cents; decimal.js and the JSON layer take it from here. */
export function parseNumeric(text: string): string {
  return text;
}

/** date stays the plain `YYYY-MM-DD` text the server sent (no Date object, no time zone shift). */
export function parseDate(text: string): string {
  return text;
}

const timestampPattern = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

/** What the service's sessions (TimeZone=UTC) send: `2026-03-01 09:30:00.123456+00`, fraction optional. */
const utcTimestampPattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?\+00$/;

/**
 * timestamptz (and timestamp, read as UTC) to `2026-03-01T09:30:00.000Z`. The server writes
 * `2026-03-01 09:30:00.123+00` in the session time zone; seconds offsets of historic zones included.
 * Every row of a page carries two timestamps, so the UTC text the service's sessions produce is
 * rewritten by slicing (the same result as the Date round trip below, which the tests compare);
 * anything else takes the general path.
 */
export function parseTimestamp(text: string): string {
  if (utcTimestampPattern.test(text)) {
    // Milliseconds: the first three fraction digits (Date truncates the same way), zero-padded.
    const fraction = text.length > 22 ? `${text.slice(20, text.length - 3)}00`.slice(0, 3) : '000';
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
  }
  return parseTimestampText(text);
}

function parseTimestampText(text: string): string {
  const match = timestampPattern.exec(text);
  if (!match) throw new RangeError(`Unexpected timestamp text ${JSON.stringify(text)}`);
  const [, date, time, offsetHours, offsetMinutes, offsetSeconds] = match;
  const asUtc = Date.parse(`${date}T${time}Z`);
  if (offsetHours === undefined) return new Date(asUtc).toISOString();
  const sign = offsetHours.startsWith('-') ? -1 : 1;
  const offsetSecondsTotal = sign * (Math.abs(Number(offsetHours)) * 3600 + Number(offsetMinutes ?? 0) * 60 + Number(offsetSeconds ?? 0));
  return new Date(asUtc - offsetSecondsTotal * 1000).toISOString();
}

/** Parser per type OID, handed to node-postgres (`types.getTypeParser`) and to PGlite (`parsers`). */
export const typeParsers: Readonly<Record<number, (text: string) => unknown>> = {
  [typeOids.int8]: parseInt8,
  [typeOids.numeric]: parseNumeric,
  [typeOids.date]: parseDate,
  [typeOids.timestamp]: parseTimestamp,
  [typeOids.timestamptz]: parseTimestamp,
};
