// The handlers' error answers: a status, the spec's Error body, and the headers the service sends with
// it. Worded by the contract's request checks where the service's words live there.
import type { ApiError, ErrorCode, RequestProblem } from '@invoice-api/contract';

export interface Refusal {
  status: number;
  body: ApiError;
  headers: Record<string, string>;
}

export function refusal(status: number, error: ErrorCode, message: string, headers: Record<string, string> = {}, details?: ApiError['details']): Refusal {
  return { status, body: { error, message, ...(details === undefined ? {} : { details }) }, headers };
}

/** A 400 `invalid_request` with the problem's message and details. */
export function invalid(problem: RequestProblem): Refusal {
  return refusal(400, 'invalid_request', problem.message, {}, problem.details);
}

/** A 400 naming one field of the request, as `ApiError.invalid(field, issue)` words it. */
export function invalidField(field: string, issue: string): Refusal {
  return invalid({ message: `Invalid '${field}': ${issue}.`, details: { field, issue } });
}
