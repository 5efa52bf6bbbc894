// PostgreSQL text cannot hold U+0000, and a NUL in a string is never meaningful for this API: a body
// string containing one is a 400 naming it, rather than a database error (500) later. Runs after the
// validator, so that schema problems keep their place in body order.
//
// JSON can only write NUL inside a string as the escape `\u0000` (a raw control character is invalid
// JSON), so the body parser's raw bytes tell whether a walk of the parsed body can find anything:
// `noteNulEscapes` looks at them as they arrive (json-body.ts), and most bodies are never walked.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { ApiError } from '../errors.js';
import './locals.js';
import { fieldName } from './validation-problems.js';

const nulEscape = Buffer.from('\\u0000');

/** express.json's `verify` hook for a UTF-8 body: records whether the raw bytes may hold a NUL. */
export function noteNulEscapes(_req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
  (res as Response).locals.bodyMayHoldNul = raw.includes(nulEscape);
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

export function rejectNulCharacters(): RequestHandler {
  return (req, res, next) => {
    // False: the raw UTF-8 body has no `\u0000`; undefined: it was not read that way (json-body.ts).
    if (res.locals.bodyMayHoldNul === false) {
      next();
      return;
    }
    const path = firstNulCharacter(req.body);
    if (path === undefined) {
      next();
      return;
    }
    const field = path.length === 0 ? 'body' : fieldName(path);
    next(ApiError.invalid(field, 'must not contain the NUL character (U+0000)'));
  };
}
