// A bounded HTTP call: every request of these tests has a deadline, so a hung socket fails the test
// instead of hanging it.
export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, the text otherwise, undefined when empty. */
  body: unknown;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(new URL(path, base), { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
  const text = await response.text();
  let parsed: unknown = text === '' ? undefined : text;
  if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed, text };
}
