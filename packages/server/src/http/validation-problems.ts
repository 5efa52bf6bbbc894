// The validator's problems as the service's 400: which problem, and in what words, is the contract's
// mapping (request-checks/validator-problems.ts), shared with the client's MSW handlers; this wraps it
// in the ApiError the error mapper sends.
import { requestProblem, type ValidatorProblem } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import type { OperationEntry } from './locals.js';

export { fieldName, type ValidatorProblem } from '@invoice-api/contract';

/** The 400 for a failed request validation. */
export function invalidRequest(problems: readonly ValidatorProblem[], body: unknown, operation: OperationEntry | undefined): ApiError {
  const { message, details } = requestProblem(problems, body, operation);
  return new ApiError(400, 'invalid_request', message, details);
}
