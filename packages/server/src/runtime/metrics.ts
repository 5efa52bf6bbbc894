// The Prometheus metrics of one service instance (prom-client), in a registry of its own so that two
// instances in one process (tests) never mix their counts. Requests are labelled by operationId and
// status only, never by the raw path: an operator sees every operation's rate and latency, and the
// number of series stays bounded (14 operations plus `unmatched`, times the statuses each answers),
// whatever paths clients make up.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import { productContract, type ServedContract } from '../http/served-contract.js';
import { droppedLogLines } from './logger.js';

/** Label of requests that name no operation: unknown paths, 405s, CORS preflights, `/docs`, `/openapi.json`. */
export const unmatchedOperation = 'unmatched';
/** Status label of a request whose client went away before the answer was sent. */
export const abortedStatus = 'aborted';

/** Seconds; from a cached health check to a broad search count under load. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The counter and histogram of one operation and status, bound once and reused by every request. */
export interface RequestSeries {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

export interface Metrics {
  readonly registry: Registry;
  /** Requests being handled now. */
  readonly inFlight: Gauge;
  /** The series of one operation and status (`0` for a request aborted before its answer). */
  requestSeries(operationId: string, status: number): RequestSeries;
  /** A request refused with 429 by the rate limits of `group` (the operation's `x-rate-limit`). */
  rateLimitRefused(group: string): void;
  /** A request answered 503 because the database could not be reached. */
  databaseUnavailable(): void;
}

/** `operations`: the served contract's (its rate-limit groups are counted from the start); default the product's. */
export function createMetrics(
  database: Pick<Database, 'engine' | 'poolStats'>,
  operations: ServedContract['operations'] = productContract.operations,
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by operationId (unmatched: no operation of the API) and status (aborted: the client left first).',
    labelNames: ['operation_id', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching the service to its answer being sent, by operationId and status.',
    labelNames: ['operation_id', 'status'] as const,
    buckets: durationBuckets,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'http_requests_in_flight', help: 'HTTP requests being handled now.', registers: [registry] });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: "Requests refused with 429 by the rate limits, by the operation's x-rate-limit group.",
    labelNames: ['group'] as const,
    registers: [registry],
  });
  // Every limited group starts at 0, so that a dashboard's rate() sees the series before the first 429.
  for (const entry of Object.values(operations)) if (entry.rateLimitGroup !== 'none') refusals.inc({ group: entry.rateLimitGroup }, 0);
  const unavailable = new Counter({
    name: 'database_unavailable_total',
    help: 'Requests answered 503 because the database could not be reached.',
    registers: [registry],
  });
  registerPoolGauges(registry, database);
  let droppedReported = 0;
  new Counter({
    name: 'log_lines_dropped_total',
    help: "Log lines this process dropped because stdout's reader did not keep up and the log buffer was full.",
    registers: [registry],
    collect() {
      const dropped = droppedLogLines();
      this.inc(dropped - droppedReported);
      droppedReported = dropped;
    },
  });

  // operationId -> status -> series: two Map lookups per request, no label object built per request.
  const series = new Map<string, Map<number, RequestSeries>>();
  return {
    registry,
    inFlight,
    requestSeries(operationId, status) {
      let byStatus = series.get(operationId);
      if (byStatus === undefined) {
        byStatus = new Map();
        series.set(operationId, byStatus);
      }
      let found = byStatus.get(status);
      if (found === undefined) {
        const statusLabel = status === 0 ? abortedStatus : String(status);
        found = { count: requests.labels(operationId, statusLabel), duration: durations.labels(operationId, statusLabel) };
        byStatus.set(status, found);
      }
      return found;
    },
    rateLimitRefused(group) {
      refusals.inc({ group });
    },
    databaseUnavailable() {
      unavailable.inc();
    },
  };
}

/**
 * Read at scrape time, not per query. On PostgreSQL these are node-postgres's pool counts; on PGlite,
 * which is one session, `max` and `open` are 1 and `waiting` is the queue of queries and transactions
 * waiting for that session (pglite-dialect.ts), the one sign of load it has.
 */
function registerPoolGauges(registry: Registry, database: Pick<Database, 'engine' | 'poolStats'>): void {
  const engine = database.engine;
  new Gauge({
    name: 'database_pool_max_connections',
    help: 'Connections the pool may open (DATABASE_POOL_SIZE; 1 on PGlite).',
    labelNames: ['engine'] as const,
    registers: [registry],
    collect() {
      this.set({ engine }, database.poolStats().max);
    },
  });
  new Gauge({
    name: 'database_pool_connections',
    help: 'Open connections of the pool, by state (idle or in_use).',
    labelNames: ['engine', 'state'] as const,
    registers: [registry],
    collect() {
      const stats = database.poolStats();
      this.set({ engine, state: 'idle' }, stats.idle);
      this.set({ engine, state: 'in_use' }, stats.open - stats.idle);
    },
  });
  new Gauge({
    name: 'database_pool_waiting',
    help: 'Queries waiting for a connection of the pool (on PGlite: for its one session).',
    labelNames: ['engine'] as const,
    registers: [registry],
    collect() {
      this.set({ engine }, database.poolStats().waiting);
    },
  });
}
