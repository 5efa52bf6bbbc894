// X-Request-Id: the caller's own id when it is usable (1 to 128 visible ASCII characters, so it is safe
// in logs and headers), else a new one. Always echoed, so a caller can quote it when reporting a problem.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import './locals.js';

const usableRequestId = /^[\x21-\x7e]{1,128}$/;

export function pickRequestId(offered: string | undefined): string {
  return offered !== undefined && usableRequestId.test(offered) ? offered : randomUUID();
}

export function requestId(): RequestHandler {
  return (req, res, next) => {
    const id = pickRequestId(req.get('x-request-id'));
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
