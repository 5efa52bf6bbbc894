// Structured JSON logs (pino): one line per finished request carrying the request id, method, path,
// status and duration. Request headers are left out on purpose: they hold the bearer token.
import type { Request, Response, RequestHandler } from 'express';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { LogLevel } from '../config.js';
import './locals.js';

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'invoice-api' }, timestamp: pino.stdTimeFunctions.isoTime });
}

export function httpLogging(logger: Logger): RequestHandler {
  const middleware = pinoHttp<Request, Response>({
    logger,
    genReqId: (_req, res) => res.locals.requestId,
    customAttributeKeys: { reqId: 'requestId' },
    // Binds the request id at the top level of every line the request logs (req.log included).
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error !== undefined || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
  });
  return (req, res, next) => middleware(req, res, next);
}
