// HTTP load through autocannon: N connections against one route, either one fixed body or a body
// per request (each issue names another draft).
import autocannon from 'autocannon';
import type { Figures, Measure } from './figures.js';

export interface HttpLoadOptions {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  connections: number;
  measure: Measure;
  /** A fixed body, or a function giving the body of the n-th request. */
  body?: unknown;
  nextBody?: () => unknown;
  /** The status a successful answer has; any other status counts as an error. */
  expectStatus: number;
}

export async function runHttpLoad(options: HttpLoadOptions): Promise<Figures> {
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...options.headers };
  const request: autocannon.Request = {
    method: options.method,
    path: options.path,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.nextBody === undefined ? {} : { setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify(options.nextBody?.()) }) }),
  };
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...('seconds' in options.measure ? { duration: options.measure.seconds } : { amount: options.measure.requests }),
    requests: [request],
    // Answers are read whole; a 2xx that is not the expected one still counts as a failure below.
    timeout: 30,
  });
  // autocannon's `non2xx` would let a wrong 2xx (201 for 200) pass: count the expected status instead.
  const total = result.requests.total;
  const expected = result.statusCodeStats?.[`${options.expectStatus}`]?.count ?? 0;
  const unexpected = total - expected + result.errors + result.timeouts;
  return {
    requestsPerSecond: total / (result.duration || 1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
    errors: unexpected,
  };
}
