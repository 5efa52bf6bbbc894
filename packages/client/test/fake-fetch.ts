// A scripted fetch for the client's tests: answers from a queue and records every request it saw.
// Injected through the client's `fetch` option, so no global is patched.
export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** No answer at all: fetch rejects with a TypeError, as the Fetch standard has it for network failures. */
export const networkFailure = { networkFailure: true } as const;
type Scripted = ScriptedAnswer | typeof networkFailure;

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
    if ('networkFailure' in answer) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    const text = answer.body === undefined ? null : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status, headers: { 'Content-Type': 'application/json', ...answer.headers } });
  };
  return { fetch, seen, remaining: () => answers.length };
}

export const errorBody = (error: string, message = 'x') => ({ error, message });
