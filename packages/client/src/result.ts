// What every call answers: a discriminated union on `ok`, with the spec's body for that outcome.
// Generic over the contract (`ContractResult<C, K, Read>`, ./types.ts); `ApiResult<K>` and friends are
// the product's.
import type { OperationId } from '@invoice-api/contract';
import type { ClientContract, ContractErrorData, ContractOperationId, ContractSuccessData, ContractSuccessEtag, ProductContract } from './types.js';

interface ResultBase<K extends string> {
  /** The operation that was called. */
  operationId: K;
  /** The HTTP status as received. */
  status: number;
  /** The raw response of the last attempt, for headers such as `Location` or `RateLimit`. */
  response: Response;
  /** The `X-Request-Id` this call sent (the same on every retry, so logs tie the attempts together). */
  requestId: string;
  /** How many HTTP requests the call made (more than 1 after retries). */
  attempts: number;
  /** The `Idempotency-Key` this call sent (the same on every retry) where the operation takes one. */
  idempotencyKey: string | undefined;
  /** True when the answer is the stored answer to an earlier request with the same key (`Idempotent-Replayed: true`): nothing was written this time. */
  replayed: boolean;
}

interface Etag<E> {
  /** The answer's `ETag`, to send back as `ifMatch` on an update (a string wherever the spec promises one). */
  etag: E;
}

/** A success of operation `K` of contract `C`; `Read` is how the call asked for the body (`{ stream: true }`, `{ accept }`). */
export type ContractSuccess<C extends ClientContract, K extends ContractOperationId<C>, Read = object> = ResultBase<K> &
  Etag<ContractSuccessEtag<C, K>> & { ok: true; data: ContractSuccessData<C, K, Read>; error?: undefined };
export type ContractFailure<C extends ClientContract, K extends ContractOperationId<C>> = ResultBase<K> &
  Etag<string | undefined> & { ok: false; data?: undefined; error: ContractErrorData<C, K> };
export type ContractResult<C extends ClientContract, K extends ContractOperationId<C>, Read = object> = ContractSuccess<C, K, Read> | ContractFailure<C, K>;

export type ApiSuccess<K extends OperationId> = ContractSuccess<ProductContract, K>;
export type ApiFailure<K extends OperationId> = ContractFailure<ProductContract, K>;
export type ApiResult<K extends OperationId> = ApiSuccess<K> | ApiFailure<K>;

/** Any call's failure, of any contract: what an `ApiCallError` carries. */
export type CallFailure<K extends string = string> = ResultBase<K> & Etag<string | undefined> & { ok: false; data?: undefined; error: unknown };

/** The failure of a product operation, and of another contract's operation its own `CallFailure`. */
type FailureOf<K extends string> = K extends OperationId ? ApiFailure<K> : CallFailure<K>;

/**
 * Thrown when an answer is not one the spec allows a client to rely on: an error status whose body
 * is not a JSON object, or a success body that is not JSON. Typed errors stay for documented bodies.
 */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor(
    /** The operation's id (a product `OperationId` for the product's client). */
    readonly operationId: OperationId,
    readonly status: number,
    readonly requestId: string,
    reason: string,
  ) {
    super(`${operationId}: unexpected ${status} answer (${reason}); request id ${requestId}`);
  }
}

/**
 * Thrown by `expectOk` so that code which only wants the happy path can still see the Error body.
 * `ApiCallError<'getInvoice'>` carries the product's typed failure; `F` is the failure of another
 * contract's operation (inferred where one is thrown).
 */
export class ApiCallError<K extends string = OperationId, F extends CallFailure<K> = FailureOf<K>> extends Error {
  override readonly name = 'ApiCallError';
  readonly operationId: K;
  readonly result: F;
  // `operationId: K` beside F: where one is thrown, both are inferred from the failure.
  constructor(result: F & { readonly operationId: K }) {
    super(`${result.operationId} answered ${result.status}: ${JSON.stringify(result.error)} (request id ${result.requestId})`);
    this.result = result;
    this.operationId = result.operationId;
  }
}

/** The `data` of a result's success. */
export type OkData<R> = R extends { readonly ok: true; readonly data: infer Data } ? Data : never;

/** The success body, or an `ApiCallError` carrying the typed error body. */
export async function expectOk<R extends { readonly ok: true; readonly data: unknown } | CallFailure>(call: Promise<R> | R): Promise<OkData<R>> {
  const result: { readonly ok: true; readonly data: unknown } | CallFailure = await call;
  // The cast restates what `ok` told of R, which the compiler does not narrow through a type parameter.
  if (result.ok) return result.data as OkData<R>;
  throw new ApiCallError(result);
}
