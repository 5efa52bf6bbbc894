// What every call answers: a discriminated union on `ok`, with the spec's body for that outcome.
import type { OperationId } from '@invoice-api/contract';
import type { ErrorData, SuccessData, SuccessEtag } from './types.js';

interface ResultBase<K extends OperationId> {
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

export type ApiSuccess<K extends OperationId> = ResultBase<K> & Etag<SuccessEtag<K>> & { ok: true; data: SuccessData<K>; error?: undefined };
export type ApiFailure<K extends OperationId> = ResultBase<K> & Etag<string | undefined> & { ok: false; data?: undefined; error: ErrorData<K> };
export type ApiResult<K extends OperationId> = ApiSuccess<K> | ApiFailure<K>;

/**
 * Thrown when an answer is not one the spec allows a client to rely on: an error status whose body
 * is not a JSON object, or a success body that is not JSON. Typed errors stay for documented bodies.
 */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    readonly requestId: string,
    reason: string,
  ) {
    super(`${operationId}: unexpected ${status} answer (${reason}); request id ${requestId}`);
  }
}

/** Thrown by `expectOk` so that code which only wants the happy path can still see the Error body. */
export class ApiCallError<K extends OperationId> extends Error {
  override readonly name = 'ApiCallError';
  readonly operationId: K;
  constructor(readonly result: ApiFailure<K>) {
    super(`${result.operationId} answered ${result.status}: ${JSON.stringify(result.error)} (request id ${result.requestId})`);
    this.operationId = result.operationId;
  }
}

/** The success body, or an `ApiCallError` carrying the typed error body. */
export async function expectOk<K extends OperationId>(call: Promise<ApiResult<K>> | ApiResult<K>): Promise<SuccessData<K>> {
  const result = await call;
  if (result.ok) return result.data;
  throw new ApiCallError(result);
}
