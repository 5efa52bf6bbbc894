// Request and response types of each operation, derived from the generated contract, never typed
// by hand: change the spec, run `pnpm generate`, and these follow.
import type { OperationId, operations } from '@invoice-api/contract';

type Operation<K extends OperationId> = operations[K];
type Responses<K extends OperationId> = Operation<K>['responses'];
type JsonContent<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** Documented statuses of an operation, split by outcome. */
export type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, number> & (200 | 201 | 202 | 204);
export type ErrorStatus<K extends OperationId> = Exclude<Extract<keyof Responses<K>, number>, SuccessStatus<K>>;

/** The success body (200/201) and the error body (every documented 4xx/5xx) of an operation. */
export type SuccessData<K extends OperationId> = JsonContent<Responses<K>[SuccessStatus<K>]>;
export type ErrorData<K extends OperationId> = JsonContent<Responses<K>[ErrorStatus<K>]>;

/**
 * The `etag` of a success: `string` where the spec declares a required `ETag` on the success answer
 * (getInvoice, getDelivery and their updates), else `string | undefined`.
 */
export type SuccessEtag<K extends OperationId> = Responses<K>[SuccessStatus<K>] extends { headers: { ETag: string } } ? string : string | undefined;

/** The JSON request body of an operation (`undefined` where the body is optional). */
export type RequestBody<K extends OperationId> =
  Operation<K> extends { requestBody: { content: { 'application/json': infer Body } } }
    ? Body
    : Operation<K> extends { requestBody?: { content: { 'application/json': infer Body } } }
      ? Body | undefined
      : never;

/** The query parameters of an operation. */
export type QueryParams<K extends OperationId> = NonNullable<Operation<K>['parameters']['query']>;

/** The type of one path parameter of an operation, e.g. `PathParameter<'getInvoice', 'invoice_id'>`. */
export type PathParameter<K extends OperationId, Name extends string> = Operation<K>['parameters'] extends { path: infer Path }
  ? Name extends keyof Path
    ? Path[Name]
    : never
  : never;
