// The real system of a sequence: the running service, the tokens of the account under test and of
// another account, and the transcript of every call made (the replay script is written from it).
import type { Exchange } from './links.js';
import { pathOf, type PreparedRequest } from './model.js';

export interface Step {
  request: PreparedRequest;
  status: number;
  body: unknown;
  etag: string | null;
  location: string | null;
  replayed: string | null;
  /** What the model expected, in a few words (a comment line of the script). */
  expected: string;
}

export interface Real {
  base: string;
  tokens: { mine: string; theirs: string };
  transcript: Step[];
}

export interface Sent {
  step: number;
  exchange: Exchange;
  answer: Step;
}

/** Sends a prepared request, records it, and returns the exchange the links are evaluated on. */
export async function send(real: Real, request: PreparedRequest, expected: string): Promise<Sent> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${real.tokens[request.actor]}`, ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(new URL(pathOf(request), real.base), { method: request.method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : JSON.parse(text);
  const answer: Step = {
    request,
    status: response.status,
    body: parsed,
    etag: response.headers.get('etag'),
    location: response.headers.get('location'),
    replayed: response.headers.get('idempotent-replayed'),
    expected,
  };
  real.transcript.push(answer);
  return {
    step: real.transcript.length - 1,
    answer,
    exchange: {
      operationId: request.operationId,
      pathParams: request.pathValues,
      requestBody: request.body,
      status: response.status,
      responseBody: parsed,
      responseHeaders: response.headers,
    },
  };
}
