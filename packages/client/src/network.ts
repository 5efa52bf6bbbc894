// Requests that got no answer at all. By the Fetch standard a network failure (connection refused or
// reset, DNS, TLS, an answer cut off before its headers) rejects with a TypeError; this middleware
// turns exactly those, and only when fetch itself threw, into a NetworkError, so the transport can
// tell them from a bug (a TypeError in getToken or in openapi-fetch) and from the caller's abort.
import type { Middleware } from 'openapi-fetch';
import type { OperationId } from '@invoice-api/contract';

/** Which call gave up, set when an operation function throws the error. */
export interface FailedCall {
  operationId: OperationId;
  /** The `X-Request-Id` every attempt sent. */
  requestId: string;
  /** The `Idempotency-Key` every attempt sent: resend the call with it to learn what happened. */
  idempotencyKey: string | undefined;
  /** HTTP requests made, the first included. */
  attempts: number;
}

export class NetworkError extends Error {
  override readonly name: string = 'NetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
    /** Undefined when thrown by `api.raw`, which knows no operation. */
    readonly call?: FailedCall,
  ) {
    super(describe(method, url, cause, call), { cause });
  }
}

function describe(method: string, url: string, cause: unknown, call: FailedCall | undefined): string {
  const reason = cause instanceof Error ? cause.message : String(cause);
  if (!call) return `no answer from ${method} ${url} (${reason})`;
  const attempts = call.attempts === 1 ? '1 attempt' : `${call.attempts} attempts`;
  const resend = call.idempotencyKey === undefined ? '' : `; resend with idempotencyKey '${call.idempotencyKey}' to learn the outcome`;
  return `${call.operationId}: no answer from ${method} ${url} after ${attempts} (${reason}); request id ${call.requestId}${resend}`;
}

/**
 * The abort reason of an attempt that ran out of its time (./timeout.ts): what tells a timeout from
 * the caller's own abort, which is passed through as is.
 */
export class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

export const networkErrors: Middleware = {
  onError({ request, error }) {
    if (request.signal.aborted && request.signal.reason instanceof AttemptTimeout) return new NetworkError(request.method, request.url, request.signal.reason);
    if (error instanceof TypeError && !request.signal.aborted) return new NetworkError(request.method, request.url, error);
    return undefined;
  },
};
