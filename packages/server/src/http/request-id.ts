// X-Request-Id: the caller's own id when it is usable, else a new one (never a 400: an id is a courtesy,
// not part of the request). Usable means 1 to 128 letters, digits, `.`, `_`, `:` or `-`, which covers
// UUIDs, ULIDs and trace ids and leaves out everything that could mean something in a log viewer, an
// HTML page or a header (`<`, quotes, spaces). The spec's X-Request-Id parameter and header state the
// same pattern. Always echoed, so a caller can quote it when reporting a problem.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import './locals.js';

const usableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

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
