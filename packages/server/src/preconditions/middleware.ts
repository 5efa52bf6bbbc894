// Reads If-Match for every operation (only the updates and removals act on it, in their transaction)
// and If-None-Match for the operations that declare it (a browser sends it by itself on any GET it
// cached with an ETag, so an operation that does not take it must not refuse it): a malformed value is
// 400 here, with the other request checks, before any handler runs.
import type { RequestHandler } from 'express';
import { ifNoneMatchHeader, parseIfMatch, parseIfNoneMatch, type IfMatch, type IfNoneMatch } from './entity-tag.js';
import '../http/locals.js';

declare global {
  namespace Express {
    interface Locals {
      /** The request's If-Match condition, when it sent one (preconditions/). */
      ifMatch?: IfMatch;
      /** The request's If-None-Match condition, when it sent one (preconditions/). */
      ifNoneMatch?: IfNoneMatch;
    }
  }
}

export function preconditionHeaders(): RequestHandler {
  return (req, res, next) => {
    try {
      const ifMatch = parseIfMatch(req.headers['if-match']);
      if (ifMatch !== undefined) res.locals.ifMatch = ifMatch;
      if (res.locals.operation?.headerParams.some((header) => header.name === ifNoneMatchHeader) === true) {
        const ifNoneMatch = parseIfNoneMatch(req.headers['if-none-match']);
        if (ifNoneMatch !== undefined) res.locals.ifNoneMatch = ifNoneMatch;
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
