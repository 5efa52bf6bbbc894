// An ApiError that also sets response headers (WWW-Authenticate, Retry-After, Allow): the HTTP layer's
// own failures. Code below the HTTP layer throws plain ApiError and never needs headers.
import type { ErrorCode } from '@invoice-api/contract';
import { ApiError, type ErrorDetails } from '../errors.js';

/** Seconds a client should wait after a 503: the database pool reconnects within a few seconds. */
export const serviceUnavailableRetryAfterSeconds = 5;

export class HttpError extends ApiError {
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    details?: ErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(status, code, message, details);
    this.name = 'HttpError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }

  static serviceUnavailable(message: string, cause?: unknown): HttpError {
    return new HttpError(503, 'service_unavailable', message, { 'Retry-After': String(serviceUnavailableRetryAfterSeconds) }, undefined, { cause });
  }
}
