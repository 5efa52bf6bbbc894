// A body that is valid JSON but not an object (`"text"`, `42`, `true`, `null`, `[1]`) where the spec
// wants an object: 400 invalid_request naming the body (details.field `body`, issue "must be a JSON
// object"), and saying what it got. It is valid JSON, so "not valid JSON" would be wrong, and Ajv's
// "must be object" says less. Runs after the path parameters (they come first) and before the
// validator. Which operations take an object body is the generated table's `body.object`.
import type { RequestHandler } from 'express';
import { isRecord } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import './locals.js';

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

export function requireJsonObjectBody(): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.body;
    // undefined: no body at all (the validator decides whether one is required).
    if (res.locals.operation?.body?.object !== true || body === undefined || isRecord(body)) {
      next();
      return;
    }
    next(ApiError.invalid('body', notAnObjectIssue, `The request body must be a JSON object, not ${describeJsonValue(body)}.`));
  };
}
