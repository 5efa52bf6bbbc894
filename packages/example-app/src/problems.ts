// Every failure the user should see, as one shape: the API's documented Error body (its code, its
// message and what `details` names), or a call that got no answer at all (network, CORS).
import { UnexpectedResponseError } from '@invoice-api/client';
import type { ApiError } from '@invoice-api/contract';

/** A failed call as the client answers it: a documented error body, nearly always the spec's `Error`. */
export interface Failure {
  status: number;
  requestId: string;
  error: unknown;
}

function isApiError(body: unknown): body is ApiError {
  return (
    typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' && 'message' in body && typeof body.message === 'string'
  );
}

export interface Problem {
  /** What the user was doing, e.g. "Search". */
  action: string;
  /** `400 invalid_request`, or `No answer` when the request never got one. */
  title: string;
  /** The API's `message`, shown as sent. */
  message: string;
  /** `details` of the Error body: which field, and what is wrong with it. */
  detail?: string;
  requestId?: string;
}

export function problemFromFailure(action: string, failure: Failure): Problem {
  const { error } = failure;
  // Something between the page and the API (a gateway, a proxy) may answer in another shape.
  if (!isApiError(error)) {
    return { action, title: `${failure.status} (not the API's Error shape)`, message: JSON.stringify(error).slice(0, 500), requestId: failure.requestId };
  }
  return {
    action,
    title: `${failure.status} ${error.error}`,
    message: error.message,
    ...(error.details ? { detail: `${error.details.field}: ${error.details.issue}` } : {}),
    requestId: failure.requestId,
  };
}

/** A call that threw: no answer, or an answer the spec does not allow (not the Error shape). */
export function problemFromException(action: string, thrown: unknown, apiBaseUrl: string): Problem {
  if (thrown instanceof UnexpectedResponseError) {
    return { action, title: `${thrown.status} unexpected answer`, message: thrown.message, requestId: thrown.requestId };
  }
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return {
    action,
    title: 'No answer',
    // A browser reports a refused connection and a CORS refusal alike, as a TypeError.
    message: `${reason}. Is the API at ${apiBaseUrl} running, and does it allow this page's origin (${location.origin}) in CORS_ORIGINS?`,
  };
}
