// One measurement's figures, whatever produced the load (autocannon, the raw SQL loop, a single client).

export interface Figures {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Completed requests (or statement pairs), and how many of them failed or got an unexpected status. */
  requests: number;
  errors: number;
  /** CPU milliseconds the measured server process spent per completed request, when measured. */
  cpuMsPerRequest?: number;
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

export function figuresFromLatencies(latencies: readonly number[], elapsedMs: number, errors: number): Figures {
  return {
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    errors,
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
