// The typed handler contract, derived from openapi-typescript's `operations`: for each operationId,
// what a handler receives (path, query, body) and the only answers it may give (documented status
// and that status's body, together). Adding an operation to the spec and running `pnpm generate`
// makes a handler map without it fail to compile.
import type { operations } from '../generated/schema.js';
import type { OperationId } from '../generated/operations.js';

type Operation<K extends OperationId> = operations[K];

type JsonContent<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

type RequestBodyOf<O> = O extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : O extends { requestBody?: { content: { 'application/json': infer Body } } }
    ? Body | undefined
    : undefined;

type ParametersOf<O, Where extends 'path' | 'query'> = O extends { parameters: { [P in Where]: infer Params } }
  ? Params extends undefined
    ? Record<string, never>
    : Params
  : O extends { parameters: { [P in Where]?: infer Params } }
    ? [Params] extends [never] | [undefined]
      ? Record<string, never>
      : NonNullable<Params>
    : Record<string, never>;

/**
 * Headers a handler must set itself: `Location` (201s) and `ETag`, where the spec declares them on that
 * answer. The others (request id, rate limits, replay marker) belong to the HTTP layer.
 */
type HandlerHeaders<R> = R extends { headers: { Location: unknown; ETag: unknown } }
  ? { headers: { Location: string; ETag: string } }
  : R extends { headers: { Location: unknown } }
    ? { headers: { Location: string } }
    : R extends { headers: { ETag: unknown } }
      ? { headers: { ETag: string } }
      : { headers?: never };

/** One documented answer: its status and the body the spec gives that status. */
export type HandlerResponse<K extends OperationId> = {
  [Status in keyof Operation<K>['responses'] & number]: {
    status: Status;
    body: JsonContent<Operation<K>['responses'][Status]>;
  } & HandlerHeaders<Operation<K>['responses'][Status]>;
}[keyof Operation<K>['responses'] & number];

/** What a handler receives, already validated against the spec. */
export interface HandlerRequest<K extends OperationId> {
  params: ParametersOf<Operation<K>, 'path'>;
  query: ParametersOf<Operation<K>, 'query'>;
  body: RequestBodyOf<Operation<K>>;
}

/** A handler for one operation; `Context` is what the service adds (caller, database, logger). */
export type Handler<K extends OperationId, Context> = (request: HandlerRequest<K>, context: Context) => Promise<HandlerResponse<K>>;

/** One handler per operationId: a missing or extra key is a compile error. */
export type HandlerMap<Context> = { [K in OperationId]: Handler<K, Context> };

/** The success body of an operation, handy for domain code that builds it. */
export type SuccessBody<K extends OperationId> = Extract<HandlerResponse<K>, { status: 200 | 201 }>['body'];
