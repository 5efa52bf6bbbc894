// A scripted fetch for the client's tests: answers from a queue and records every request it saw.
// Injected through the client's `fetch` option, so no global is patched.
export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** No answer at all: fetch rejects with a TypeError, as the Fetch standard has it for network failures. */
export const networkFailure = { networkFailure: true } as const;
/** No answer until the request's signal aborts (a timeout, the caller's abort); then fetch rejects with its reason, as fetch does. */
export const hang = { hang: true } as const;
type Scripted = ScriptedAnswer | typeof networkFailure | typeof hang;

export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

export function scriptedFetch(...answers: Scripted[]) {
  const seen: SeenRequest[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({ method: request.method, url: new URL(request.url), headers: request.headers, body: await request.text() });
    const answer = answers.shift();
    if (!answer) throw new Error(`unscripted request ${request.method} ${request.url}`);
    if ('hang' in answer) {
      return new Promise<Response>((_, reject) => {
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    }
    if ('networkFailure' in answer) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    const text = answer.body === undefined ? null : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status, headers: { 'Content-Type': 'application/json', ...answer.headers } });
  };
  return { fetch, seen, remaining: () => answers.length };
}

export const errorBody = (error: string, message = 'x') => ({ error, message });
