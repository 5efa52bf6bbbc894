// What a test may make an operation answer, typed from the spec: a documented status, with a body
// that must match that status's schema (a wrong one does not compile) and optional headers; or a
// resolver that decides per request.
import type { OperationId, operations } from '@invoice-api/contract';

type Responses<K extends OperationId> = operations[K]['responses'];

/** The statuses the spec documents for an operation. */
export type DocumentedStatus<K extends OperationId> = Extract<keyof Responses<K>, number>;

/** The JSON body of one documented answer (`never` for an answer without one). */
export type AnswerBody<K extends OperationId, S extends DocumentedStatus<K>> = Responses<K>[S] extends { content: { 'application/json': infer Body } }
  ? Body
  : never;

/**
 * One documented answer. Without `body`, the answer's first named example (or seeded data where it
 * has none); the spec's required headers (`Retry-After` on 429 and 503, `WWW-Authenticate` on 401...)
 * are sent with their example values unless `headers` gives others.
 */
export type StatusAnswer<K extends OperationId> = {
  [S in DocumentedStatus<K>]: { status: S; body?: AnswerBody<K, S>; headers?: Readonly<Record<string, string>> };
}[DocumentedStatus<K>];

/** Decides the answer per request: a documented answer, or any `Response` (MSW's `HttpResponse`...). */
export type AnswerResolver<K extends OperationId> = (request: Request) => StatusAnswer<K> | Response | Promise<StatusAnswer<K> | Response>;

/** An operation's override: a fixed documented answer, or a resolver. */
export type Override<K extends OperationId> = StatusAnswer<K> | AnswerResolver<K>;

/** Overrides by operationId. */
export type Overrides = { readonly [K in OperationId]?: Override<K> };
