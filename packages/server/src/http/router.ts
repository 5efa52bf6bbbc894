// The express routes, generated from the contract's operation table: one per operationId, calling that
// operation's handler with the validated `{params, query, body}` and the request context, and sending
// the `{status, body, headers}` it returns. A handler missing from the map is a compile error.
import { Router, type Request, type Response } from 'express';
import { operationTable, type HandlerMap, type HandlerRequest, type OperationId } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import { serviceUnavailableRetryAfterSeconds } from './http-error.js';
import './locals.js';

export type ContextFactory = (req: Request, res: Response) => RequestContext;

/** The part of express-openapi-validator's request metadata the router reads. */
interface ValidatedRequest extends Request {
  openapi?: { pathParams?: Record<string, unknown> };
}

/** What every handler's answer looks like once its per-operation typing has done its job. */
interface Answer {
  status: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

export function operationRouter(handlers: HandlerMap<RequestContext>, contextFor: ContextFactory): Router {
  const router = Router({ caseSensitive: true, strict: true });
  // Concrete paths before templated ones, so that `/2.0/delivery/issue` is never taken for an id.
  const entries = Object.values(operationTable).sort((a, b) => templateCount(a.path) - templateCount(b.path));
  for (const entry of entries) {
    const route = router.route(entry.expressPath);
    const send = endpoint(entry.operationId, handlers, contextFor);
    switch (entry.method) {
      case 'GET':
        route.get(send);
        break;
      case 'POST':
        route.post(send);
        break;
      case 'PATCH':
        route.patch(send);
        break;
      default: {
        const unknownMethod: never = entry;
        throw new Error(`The operation table holds a method the router does not know: ${JSON.stringify(unknownMethod)}`);
      }
    }
  }
  return router;
}

function endpoint<K extends OperationId>(operationId: K, handlers: HandlerMap<RequestContext>, contextFor: ContextFactory) {
  const handler = handlers[operationId];
  return async (req: Request, res: Response): Promise<void> => {
    // The validator has checked params, query and body against this operation's schemas just before,
    // so this is the one place where the untyped request becomes the operation's typed request.
    // Path parameters come from the validator, which converted them to the spec's types (express's
    // own `req.params` holds strings again once the route matched).
    // The path ids are path-ids.ts's checked numbers, whatever the validator made of the strings.
    const params = { ...((req as ValidatedRequest).openapi?.pathParams ?? req.params), ...res.locals.pathIds };
    const request = { params, query: req.query, body: req.body as unknown } as unknown as HandlerRequest<K>;
    const answer: Answer = await handler(request, contextFor(req, res));
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

function templateCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
