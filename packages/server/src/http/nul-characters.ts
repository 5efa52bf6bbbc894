// PostgreSQL text cannot hold U+0000, and a NUL in a string is never meaningful for this API: a body
// string containing one is a 400 naming it, rather than a database error (500) later. Runs after the
// validator, so that schema problems keep their place in body order.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { fieldName } from './validation-problems.js';

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
  return (req, _res, next) => {
    const path = firstNulCharacter(req.body);
    if (path === undefined) {
      next();
      return;
    }
    const field = path.length === 0 ? 'body' : fieldName(path);
    next(ApiError.invalid(field, 'must not contain the NUL character (U+0000)'));
  };
}
