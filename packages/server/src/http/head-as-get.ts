// HEAD of a GET (operation-resolver.ts attaches the GET's entry) is checked as that GET. The request
// validator finds an operation by method, and a spec documents GETs, not their HEADs: it refused every
// HEAD with 405 (express-openapi-validator#874). For the length of each validator step the request
// says GET, so that its checks, and the validators it compiled (and warmed) for the GET, are the
// HEAD's too; node decided when the request arrived that a HEAD answer carries no body, and the method
// is HEAD again before anything else sees the request. Any other request passes straight through.
import type { RequestHandler } from 'express';
import './locals.js';

export function checkedAsGet(validator: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'HEAD' || res.locals.operation?.method !== 'GET') return validator(req, res, next);
    req.method = 'GET';
    let restored = false;
    const restore = (error?: unknown): void => {
      if (restored) return;
      restored = true;
      req.method = 'HEAD';
      next(error);
    };
    try {
      const result: unknown = validator(req, res, restore);
      if (result instanceof Promise) result.catch(restore);
    } catch (error) {
      restore(error);
    }
    return undefined;
  };
}
