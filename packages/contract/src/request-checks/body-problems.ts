// The service's 400s for a request it refuses before (or beside) schema validation: a body that is not
// JSON, JSON that is not the object the operation takes, a path id that is not one, a string holding
// NUL. Shared by the service's middleware and the client's MSW handlers, so both say the same words.
import type { RequestProblem } from './validator-problems.js';
import { fieldName } from './validator-problems.js';

/** The message of the 400 for a body that is not valid JSON; `position` as JSON.parse reported it. */
export function malformedJsonMessage(position: string | undefined): string {
  return `The request body is not valid JSON${position === undefined ? '' : ` (at position ${position})`}.`;
}

/** The position in a JSON.parse error's message (`... at position 12 ...`), if it names one. */
export function jsonErrorPosition(message: string): string | undefined {
  return /position (\d+)/.exec(message)?.[1];
}

export const notAnObjectIssue = 'must be a JSON object';

/** `a string`, `the number 42`, `true`, `null`, `an array`: what the client sent instead of an object. */
export function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return String(value);
    default:
      return typeof value;
  }
}

/** The 400 for valid JSON that is not an object where the operation takes one. */
export function notAnObjectProblem(body: unknown): RequestProblem {
  return { message: `The request body must be a JSON object, not ${describeJsonValue(body)}.`, details: { field: 'body', issue: notAnObjectIssue } };
}

/** The id a path segment (still percent-encoded) holds, or undefined when it is not a valid id. */
export function parsePathId(raw: string, maximum: number): number | undefined {
  const text = decodedSegment(raw);
  // Digits only, the first not 0; 10 digits at most keeps Number() exact before the bound check.
  if (text === undefined || !/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= maximum ? value : undefined;
}

/** The 400 for a path id that is not one. */
export function pathIdProblem(name: string, maximum: number): RequestProblem {
  const issue = `must be a positive integer written in digits, without a sign, exponent or leading zero, at most ${maximum}`;
  return { message: `The path parameter '${name}' must be a positive integer.`, details: { field: name, issue } };
}

/** A percent-encoded path segment decoded, or undefined when its encoding is broken. */
export function decodedSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The path of the first string (in body order) that holds a NUL character. */
export function firstNulCharacter(value: unknown, path: Array<string | number> = []): Array<string | number> | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) {
      const found = firstNulCharacter(element, [...path, index]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, entry] of Object.entries(value)) {
      const found = firstNulCharacter(entry, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The 400 for a string holding NUL at `path` (PostgreSQL text cannot hold it). */
export function nulCharacterProblem(path: ReadonlyArray<string | number>): RequestProblem {
  const field = path.length === 0 ? 'body' : fieldName(path);
  const issue = 'must not contain the NUL character (U+0000)';
  return { message: `Invalid '${field}': ${issue}.`, details: { field, issue } };
}
