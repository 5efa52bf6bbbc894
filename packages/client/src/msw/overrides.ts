// What a test may make an operation answer, typed from the spec: a documented status, with a body
// that must match that status's schema (a wrong one does not compile) and optional headers; or a
// resolver that decides per request. The types are generic over openapi-typescript's `operations`
// (`Ops`, the product's by default), so a fixture spec's handlers are typed from the fixture.
import type { operations } from '@invoice-api/contract';

/** The operationIds of an `operations` type. */
export type OperationKey<Ops extends object> = keyof Ops & string;

type Responses<Ops extends object, K extends OperationKey<Ops>> = Ops[K] extends { responses: infer R } ? R : never;

/** The statuses the spec documents for an operation. */
export type DocumentedStatus<K extends OperationKey<Ops>, Ops extends object = operations> = Extract<keyof Responses<Ops, K>, number>;

type ContentOf<Ops extends object, K extends OperationKey<Ops>, S extends DocumentedStatus<K, Ops>> = Responses<Ops, K>[S] extends { content: infer C }
  ? C
  : never;

/**
 * The body of one documented answer: its JSON schema's type; a string or bytes where it has a media
 * type other than JSON (text, a PDF...); `never` for an answer without a body.
 */
export type AnswerBody<K extends OperationKey<Ops>, S extends DocumentedStatus<K, Ops>, Ops extends object = operations> = [ContentOf<Ops, K, S>] extends [
  never,
]
  ? never
  :
      | (ContentOf<Ops, K, S> extends { 'application/json': infer Body } ? Body : never)
      | ([Exclude<keyof ContentOf<Ops, K, S>, 'application/json'>] extends [never] ? never : string | Uint8Array);

/** The media types of one documented answer. */
export type AnswerMediaType<K extends OperationKey<Ops>, S extends DocumentedStatus<K, Ops>, Ops extends object = operations> = keyof ContentOf<Ops, K, S> &
  string;

/**
 * One documented answer. Without `body`, the answer's first named example (or seeded data where it
 * has none; a small valid file for a byte answer); the spec's required headers (`Retry-After` on 429
 * and 503, `WWW-Authenticate` on 401...) are sent with their example values unless `headers` gives
 * others. `mediaType` picks one of the answer's media types (default: the one the request's Accept
 * prefers; with a string or bytes `body`, the first that is not JSON).
 */
export type StatusAnswer<K extends OperationKey<Ops>, Ops extends object = operations> = {
  [S in DocumentedStatus<K, Ops>]: {
    status: S;
    body?: AnswerBody<K, S, Ops>;
    mediaType?: AnswerMediaType<K, S, Ops>;
    headers?: Readonly<Record<string, string>>;
  };
}[DocumentedStatus<K, Ops>];

/** Decides the answer per request: a documented answer, or any `Response` (MSW's `HttpResponse`...). */
export type AnswerResolver<K extends OperationKey<Ops>, Ops extends object = operations> = (
  request: Request,
) => StatusAnswer<K, Ops> | Response | Promise<StatusAnswer<K, Ops> | Response>;

/** An operation's override: a fixed documented answer, or a resolver. */
export type Override<K extends OperationKey<Ops>, Ops extends object = operations> = StatusAnswer<K, Ops> | AnswerResolver<K, Ops>;

/** Overrides by operationId. */
export type Overrides<Ops extends object = operations> = { readonly [K in OperationKey<Ops>]?: Override<K, Ops> };
