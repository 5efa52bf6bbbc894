// One log line per finished request, on the process's logger (runtime/logger.ts): the request id, method,
// path, status and duration, and for a failure its cause. Request headers are left out on purpose:
// they hold the bearer token.
//
// Written here rather than with pino-http: that middleware builds two child loggers per request
// (serialising the request into each one's bindings) whether or not anything logs through them, which
// was a measurable share of a light request's CPU. Here the line is one object built when the answer
// is finished, and a request-scoped child logger is only made for a handler that asks for one.
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import './locals.js';

type Level = 'info' | 'warn' | 'error';

interface RequestLine {
  requestId: string;
  req: { method: string; url: string };
  res: { status: number };
  responseTime: number;
  tokenFailure?: string;
  err?: Error;
  reason?: string;
}

/**
 * A failure (500 and above, or a handler's error) is an error with its stack (`res.locals.failure`, set
 * by errors.ts); a 503 the service expected (a database outage: `res.locals.unavailable`) is a warning
 * naming its cause without a stack, since it repeats on every request while the outage lasts.
 */
function lineFor(req: Request, res: Response, startedAt: number, aborted: boolean): { level: Level; line: RequestLine; message: string } {
  const { locals } = res;
  const line: RequestLine = {
    requestId: locals.requestId,
    req: { method: req.method, url: req.originalUrl },
    res: { status: res.statusCode },
    responseTime: Math.round(performance.now() - startedAt),
  };
  if (locals.tokenFailure !== undefined) line.tokenFailure = locals.tokenFailure;
  if (locals.unavailable !== undefined && locals.failure === undefined) {
    line.reason = locals.unavailable;
    return { level: 'warn', line, message: 'service unavailable' };
  }
  if (locals.failure !== undefined || res.statusCode >= 500) {
    line.err = locals.failure ?? new Error(`failed with status code ${res.statusCode}`);
    return { level: 'error', line, message: 'request errored' };
  }
  // The client left before the answer was handed over: the status is whatever had been set by then.
  if (aborted) return { level: 'info', line, message: 'request aborted' };
  return { level: 'info', line, message: 'request completed' };
}

export function httpLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    // 'finish' when the answer was handed to the socket; 'close' alone when the client left first
    // (or the socket failed: 'error').
    const finished = (): void => {
      res.removeListener('finish', finished);
      res.removeListener('close', finished);
      res.removeListener('error', finished);
      const write = (): void => {
        const { level, line, message } = lineFor(req, res, startedAt, !res.writableFinished);
        logger[level](line, message);
      };
      // A streamed answer's failure is known only once its pipeline settled, which may be after 'close'.
      const { streamSettled } = res.locals;
      if (streamSettled === undefined) write();
      else void streamSettled.then(write);
    };
    res.on('finish', finished);
    res.on('close', finished);
    res.on('error', finished);
    next();
  };
}
