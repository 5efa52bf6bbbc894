// Reads If-Match for every operation (only the updates act on it, in their transaction): a malformed
// value is 400 here, with the other request checks, before any handler runs.
import type { RequestHandler } from 'express';
import { parseIfMatch, type IfMatch } from './entity-tag.js';
import '../http/locals.js';

declare global {
  namespace Express {
    interface Locals {
      /** The request's If-Match condition, when it sent one (preconditions/). */
      ifMatch?: IfMatch;
    }
  }
}

export function ifMatchCondition(): RequestHandler {
  return (req, res, next) => {
    try {
      const condition = parseIfMatch(req.headers['if-match']);
      if (condition !== undefined) res.locals.ifMatch = condition;
      next();
    } catch (error) {
      next(error);
    }
  };
}
