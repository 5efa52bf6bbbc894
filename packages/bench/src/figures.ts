// One measurement's figures, whatever produced the load (autocannon, the raw SQL loop, a single client).
import type { DatabaseCpuMeter, StatementCost } from './database-cpu.js';

export interface Figures {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Completed requests (or statement pairs), and how many of them failed or got an unexpected status. */
  requests: number;
  errors: number;
  /** What the first failed request got (its status and the start of its body, or the error), when one failed. */
  firstFailure?: string;
  /** CPU milliseconds the measured server process spent per completed request, when measured. */
  cpuMsPerRequest?: number;
  /** CPU milliseconds PostgreSQL's backends spent per completed request, when measured (database-cpu.ts). */
  databaseCpuMsPerRequest?: number;
  /** What each statement cost per request, where the server has pg_stat_statements (database-cpu.ts). */
  statements?: StatementCost[];
}

/** How long (or how much) each measurement runs: seconds of load, or a fixed number of requests. */
export type Measure = { seconds: number } | { requests: number };

/** The q-th percentile (0..100) of unsorted samples, nearest-rank. */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function figuresFromLatencies(latencies: readonly number[], elapsedMs: number, errors: number, firstFailure?: string): Figures {
  return {
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    errors,
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
}

/** A process whose CPU time can be read (a started server, see child-process.ts). */
export interface CpuMeter {
  cpuMs(): Promise<number>;
}

/** Runs one measurement and adds the CPU time `server` spent on it, per completed request. */
export async function withCpu(server: CpuMeter, run: () => Promise<Figures>): Promise<Figures> {
  const before = await server.cpuMs();
  const figures = await run();
  const after = await server.cpuMs();
  return { ...figures, cpuMsPerRequest: figures.requests > 0 ? (after - before) / figures.requests : Number.NaN };
}

/**
 * Runs one measurement and adds the CPU time `server` spent on it, and with `database` what
 * PostgreSQL's backends spent (and each statement cost), per completed request.
 */
export async function withServerAndDatabaseCpu(server: CpuMeter, database: DatabaseCpuMeter | undefined, run: () => Promise<Figures>): Promise<Figures> {
  if (database === undefined) return withCpu(server, run);
  const { result, cost } = await database.measure(
    () => withCpu(server, run),
    (figures) => figures.requests,
  );
  return { ...result, databaseCpuMsPerRequest: cost.cpuMsPerRequest, ...(cost.statements === undefined ? {} : { statements: cost.statements }) };
}

/** A measure cut in two halves (at least one second, or one request, each). */
export function halfOf(measure: Measure): Measure {
  return 'seconds' in measure ? { seconds: Math.max(1, measure.seconds / 2) } : { requests: Math.max(1, Math.ceil(measure.requests / 2)) };
}

/**
 * Figures of several runs taken as one: requests and errors add up, req/s over the summed run time,
 * CPU per request weighted by requests, p50 the requests-weighted mean of the runs' p50s and p99 the
 * highest p99 (percentiles of separate runs cannot be merged exactly).
 */
export function combineFigures(runs: readonly Figures[]): Figures {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + (run.requestsPerSecond > 0 ? run.requests / run.requestsPerSecond : 0), 0);
  const weighted = (value: (run: Figures) => number): number => runs.reduce((sum, run) => sum + value(run) * run.requests, 0) / Math.max(1, requests);
  const combined: Figures = {
    requestsPerSecond: seconds > 0 ? requests / seconds : Number.NaN,
    p50: weighted((run) => run.p50),
    p99: Math.max(...runs.map((run) => run.p99)),
    requests,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
  const firstFailure = runs.find((run) => run.firstFailure !== undefined)?.firstFailure;
  if (firstFailure !== undefined) combined.firstFailure = firstFailure;
  if (runs.every((run) => run.cpuMsPerRequest !== undefined)) combined.cpuMsPerRequest = weighted((run) => run.cpuMsPerRequest ?? Number.NaN);
  return combined;
}
