// The real system of a sequence: the running service, the tokens of the account under test and of
// another account, and the transcript of every call made (the replay script is written from it).
import type { Exchange } from './links.js';
import { pathOf, type FormPart, type PreparedRequest } from './model.js';

export interface Step {
  request: PreparedRequest;
  status: number;
  /** The answer's body: parsed JSON, the text of a `text/*` answer, the bytes of any other, undefined when empty. */
  body: unknown;
  contentType: string | null;
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

/** A `multipart/form-data` body: fetch writes the boundary and the parts' headers. */
function formOf(parts: readonly FormPart[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else form.append(part.name, new File([part.bytes], part.fileName, { type: part.mediaType }));
  }
  return form;
}

function parseBody(bytes: Uint8Array, contentType: string | null): unknown {
  if (bytes.length === 0) return undefined;
  if (contentType === null || /^application\/(.+\+)?json/.test(contentType)) return JSON.parse(new TextDecoder().decode(bytes));
  if (contentType.startsWith('text/')) return new TextDecoder().decode(bytes);
  return bytes;
}

/** Sends a prepared request, records it, and returns the exchange the links are evaluated on. */
export async function send(real: Real, request: PreparedRequest, expected: string): Promise<Sent> {
  // JSON unless the request names what it accepts (a PDF, a CSV, an attachment's bytes).
  const accepts = Object.keys(request.headers).some((name) => name.toLowerCase() === 'accept');
  const headers: Record<string, string> = {
    ...(accepts ? {} : { accept: 'application/json' }),
    authorization: `Bearer ${real.tokens[request.actor]}`,
    ...request.headers,
  };
  let body: string | FormData | undefined;
  if (request.bodyKind === 'multipart') {
    body = formOf(request.body as FormPart[]);
  } else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(new URL(pathOf(request), real.base), { method: request.method, headers, body, signal: AbortSignal.timeout(10_000) });
  const contentType = response.headers.get('content-type');
  const parsed = parseBody(new Uint8Array(await response.arrayBuffer()), contentType);
  const answer: Step = {
    request,
    status: response.status,
    body: parsed,
    contentType,
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
