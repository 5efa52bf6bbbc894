// HTTP load through autocannon: N connections against one route, either one fixed body or a body
// per request (each issue names another draft).
import autocannon from 'autocannon';
import { figuresFromLatencies, type Figures, type Measure } from './figures.js';
import { send } from './http-request.js';

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
  /** Headers of the n-th request on top of `headers` (an Idempotency-Key of its own). */
  nextHeaders?: () => Record<string, string>;
  /** The status a successful answer has; any other status counts as an error. */
  expectStatus: number;
}

/**
 * A fixed number of requests, N at a time. autocannon settles its runs on a one-second
 * tick, so a handful of requests (warm-ups, the smoke profile) would each cost a whole second there.
 */
async function runFixedRequests(options: HttpLoadOptions, count: number): Promise<Figures> {
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...options.headers };
  const latencies: number[] = [];
  let errors = 0;
  let firstFailure: string | undefined;
  const failed = (description: string): void => {
    errors += 1;
    firstFailure ??= description;
  };
  let remaining = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(options.connections, count) }, async () => {
      while (remaining > 0) {
        remaining -= 1;
        const body = options.nextBody === undefined ? options.body : options.nextBody();
        const requestHeaders = options.nextHeaders === undefined ? headers : { ...headers, ...options.nextHeaders() };
        const begin = performance.now();
        try {
          const answer = await send(new URL(options.path, options.url), {
            method: options.method,
            headers: requestHeaders,
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            timeoutMs: 30_000,
          });
          if (answer.status !== options.expectStatus) failed(`status ${answer.status}: ${answer.text.slice(0, 300)}`);
        } catch (error) {
          failed(error instanceof Error ? `${error.message}${'code' in error ? ` (${String(error.code)})` : ''}` : String(error));
        }
        latencies.push(performance.now() - begin);
      }
    }),
  );
  return figuresFromLatencies(latencies, performance.now() - started, errors, firstFailure);
}

export async function runHttpLoad(options: HttpLoadOptions): Promise<Figures> {
  if ('requests' in options.measure) return runFixedRequests(options, options.measure.requests);
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...options.headers };
  const request: autocannon.Request = {
    method: options.method,
    path: options.path,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.nextBody === undefined && options.nextHeaders === undefined
      ? {}
      : {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            ...(options.nextBody === undefined ? {} : { body: JSON.stringify(options.nextBody()) }),
            ...(options.nextHeaders === undefined ? {} : { headers: { ...req.headers, ...options.nextHeaders() } }),
          }),
        }),
  };
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.measure.seconds,
    requests: [request],
    // Answers are read whole; a 2xx that is not the expected one still counts as a failure below.
    timeout: 30,
  });
  // autocannon's `non2xx` would let a wrong 2xx (201 for 200) pass: count the expected status instead.
  const total = result.requests.total;
  const expected = result.statusCodeStats?.[`${options.expectStatus}`]?.count ?? 0;
  const unexpected = total - expected + result.errors + result.timeouts;
  // autocannon counts what failed without keeping an answer: name the statuses and the counts.
  const otherStatuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => status !== `${options.expectStatus}`)
    .map(([status, stats]) => `status ${status} x${stats.count ?? 0}`);
  const failures = [
    ...otherStatuses,
    ...(result.errors > 0 ? [`${result.errors} connection errors`] : []),
    ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
  ];
  return {
    // `duration` is whole seconds; the start and finish stamps time short runs properly.
    requestsPerSecond: total / Math.max(0.001, (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
    errors: unexpected,
    ...(failures.length === 0 ? {} : { firstFailure: failures.join(', ') }),
  };
}
