// Calls the handler of the operation the resolver attached (res.locals.operation), by its operationId:
// the path was matched once, by operation-resolver.ts, and is not matched again here. The handler gets
// the validated `{params, query, body}` and the request context; its `{status, body, headers}` is
// checked against the spec (answer-check.ts) and sent.
// A handler missing from the map is a compile error (HandlerMap).
import type { Request, RequestHandler, Response } from 'express';
import type { HandlerMap, HandlerRequest, OperationId } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import { answerMismatch } from './answer-check.js';
import { serviceUnavailableRetryAfterSeconds } from './http-error.js';
import './locals.js';

export type ContextFactory = (req: Request, res: Response) => RequestContext;

/** What every handler's answer looks like once its per-operation typing has done its job. */
interface Answer {
  status: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

type Endpoint = (req: Request, res: Response) => Promise<void>;

export interface RouterOptions {
  /** Check every answer against the spec before sending it (answer-check.ts). */
  checkAnswers: boolean;
}

export function operationRouter(handlers: HandlerMap<RequestContext>, contextFor: ContextFactory, options: RouterOptions): RequestHandler {
  const endpoints = new Map<string, Endpoint>(
    (Object.keys(handlers) as OperationId[]).map((operationId) => [operationId, endpoint(operationId, handlers, contextFor, options)]),
  );
  return (req, res, next) => {
    const operation = res.locals.operation;
    const send = operation === undefined ? undefined : endpoints.get(operation.operationId);
    if (send === undefined) {
      next();
      return;
    }
    send(req, res).catch(next);
  };
}

function endpoint<K extends OperationId>(operationId: K, handlers: HandlerMap<RequestContext>, contextFor: ContextFactory, options: RouterOptions): Endpoint {
  const handler = handlers[operationId];
  return async (req, res) => {
    // The validator has checked params, query and body against this operation's schemas just before,
    // so this is the one place where the untyped request becomes the operation's typed request. Path
    // parameters are path-ids.ts's values (ids as checked numbers), read by segment from the path.
    res.locals.handling = true;
    const params = res.locals.pathParams ?? {};
    const request = { params, query: req.query, body: req.body as unknown } as unknown as HandlerRequest<K>;
    const answer: Answer = await handler(request, contextFor(req, res));
    // Before anything of the answer is set: a mismatch leaves as the error mapper's 500.
    if (options.checkAnswers) {
      const mismatch = answerMismatch(operationId, answer.status, answer.body);
      if (mismatch !== undefined) throw mismatch;
    }
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    // Every 503 tells the client when to come back (the health check's included).
    if (answer.status === 503) {
      if (!res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(serviceUnavailableRetryAfterSeconds));
      // An answer, not a failure (the health check while the database is down): logged as a warning.
      res.locals.unavailable ??= `${operationId} answered 503`;
    }
    if (answer.body === undefined) res.end();
    else res.json(answer.body);
  };
}
