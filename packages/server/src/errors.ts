// The one error type that code below the HTTP layer throws. The error mapper (http/errors.ts) turns
// it, and every other failure, into the spec's Error object; nothing else writes error bodies.
import type { ErrorCode } from '@invoice-api/contract';

export interface ErrorDetails {
  /** The offending property, parameter or criterion field, as the spec's ErrorDetails describes. */
  field: string;
  /** What is wrong with it, for people. */
  issue: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static invalid(field: string, issue: string, message = `Invalid '${field}': ${issue}.`): ApiError {
    return new ApiError(400, 'invalid_request', message, { field, issue });
  }

  static notFound(message: string): ApiError {
    return new ApiError(404, 'not_found', message);
  }

  static conflict(
    code: Extract<ErrorCode, 'conflict' | 'invoice_locked' | 'invalid_transition' | 'already_issued'>,
    message: string,
    details?: ErrorDetails,
  ): ApiError {
    return new ApiError(409, code, message, details);
  }
}
