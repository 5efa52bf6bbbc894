// One log line per finished request (pino-http, on the process's logger from runtime/logger.ts),
// carrying the request id, method, path, status and duration. Request headers are left out on
// purpose: they hold the bearer token.
import type { Request, Response, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import './locals.js';

export function httpLogging(logger: Logger): RequestHandler {
  const middleware = pinoHttp<Request, Response>({
    logger,
    genReqId: (_req, res) => res.locals.requestId,
    customAttributeKeys: { reqId: 'requestId' },
    // Binds the request id at the top level of every line the request logs (req.log included).
    quietReqLogger: true,
    // A 503 the service expected (database outage; unavailable in locals.ts) is a warning without a
    // stack; every other failure an error with its stack (`res.err`, set by errors.ts).
    customLogLevel: (_req, res, error) => {
      if (res.locals.unavailable !== undefined && error === undefined && res.err === undefined) return 'warn';
      return error !== undefined || res.statusCode >= 500 ? 'error' : 'info';
    },
    customErrorMessage: (_req, res) => (res.locals.unavailable !== undefined && res.err === undefined ? 'service unavailable' : 'request errored'),
    // pino-http adds a synthetic Error (with its stack) to any line of a status >= 500: replace it by
    // the one-line reason for an expected 503.
    customErrorObject: (_req, res, _error, value: Record<string, unknown>) => {
      if (res.locals.unavailable === undefined || res.err !== undefined) return value;
      const { err: _dropped, ...rest } = value;
      return { ...rest, reason: res.locals.unavailable };
    },
    // A refused token's reason (auth.ts), on the request's own line: which check failed, never the token.
    customProps: (_req, res) => (res.locals.tokenFailure === undefined ? {} : { tokenFailure: res.locals.tokenFailure }),
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
  });
  return (req, res, next) => middleware(req, res, next);
}
