// Names a request's server span after the operation the service resolved (operation-resolver.ts),
// when the answer is finished: `POST /2.0/invoices/search`, with `http.route`, the operationId and the
// request id. The express instrumentation cannot name it: the service matches paths itself, with no
// express route per operation, so express never knows the template.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { OperationEntry } from '../http/locals.js';

/** Attribute names of what this service adds to a server span. */
export const serverSpanAttributes = {
  route: 'http.route',
  operationId: 'openapi.operation_id',
  requestId: 'http.request.id',
} as const;

interface ExpressLocals {
  operation?: OperationEntry;
  requestId?: string;
}

export function describeServerSpan(span: Span, _request: IncomingMessage | unknown, response: ServerResponse | unknown): void {
  const locals = localsOf(response);
  if (locals === undefined) return;
  if (locals.requestId !== undefined) span.setAttribute(serverSpanAttributes.requestId, locals.requestId);
  const operation = locals.operation;
  if (operation === undefined) return;
  span.updateName(`${operation.method} ${operation.path}`);
  span.setAttribute(serverSpanAttributes.route, operation.path);
  span.setAttribute(serverSpanAttributes.operationId, operation.operationId);
}

/** express's `res.locals`, on the response object node:http hands the instrumentation. */
function localsOf(response: unknown): ExpressLocals | undefined {
  if (typeof response !== 'object' || response === null || !('locals' in response)) return undefined;
  const locals = response.locals;
  return typeof locals === 'object' && locals !== null ? (locals as ExpressLocals) : undefined;
}
