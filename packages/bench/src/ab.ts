// A/B comparisons that can be trusted on a shared machine: one process per side, both started and
// warmed the same way (the same discarded requests) before any measurement, then interleaved rounds
// (A B, then B A, ...) on those two processes, reported as the median and the range of the rounds. Where the two ranges overlap the difference is within the
// noise and is said so instead of a ratio; a target holds only when the whole range meets it.
import type { RunningServer } from './child-process.js';
import { withCpu, type Figures } from './figures.js';

export interface AbSide {
  name: string;
  /** Starts this side's server (once; the rounds measure that process). */
  start(): Promise<RunningServer>;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface AbSideResult {
  name: string;
  rounds: Figures[];
  requestsPerSecond: Spread;
  cpuMsPerRequest: Spread;
  p50: Spread;
  /** The tail a lock queue shows first (the writes). */
  p99: Spread;
}

export interface AbResult {
  a: AbSideResult;
  b: AbSideResult;
}

export function spread(values: readonly number[]): Spread {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (sorted.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

export function overlaps(a: Spread, b: Spread): boolean {
  return a.min <= b.max && b.min <= a.max;
}

function summarise(name: string, rounds: Figures[]): AbSideResult {
  return {
    name,
    rounds,
    requestsPerSecond: spread(rounds.map((figures) => figures.requestsPerSecond)),
    cpuMsPerRequest: spread(rounds.map((figures) => figures.cpuMsPerRequest ?? Number.NaN)),
    p50: spread(rounds.map((figures) => figures.p50)),
    p99: spread(rounds.map((figures) => figures.p99)),
  };
}

export interface AbOptions {
  a: AbSide;
  b: AbSide;
  rounds: number;
  /** One measurement against a server's URL. */
  measure(url: string): Promise<Figures>;
  /** The warm-up every fresh process gets before its measurement, the same on both sides. */
  warmUp(url: string): Promise<unknown>;
  log(line: string): void;
}

export async function interleavedAb(options: AbOptions): Promise<AbResult> {
  const servers = new Map<AbSide, RunningServer>();
  const figures = new Map<AbSide, Figures[]>([
    [options.a, []],
    [options.b, []],
  ]);
  try {
    for (const side of [options.a, options.b]) {
      options.log(`  starting and warming: ${side.name}`);
      const server = await side.start();
      servers.set(side, server);
      await options.warmUp(server.url);
    }
    for (let round = 0; round < options.rounds; round += 1) {
      // ABBA: whatever drifts during a run (the machine's other load, caches) falls on both sides alike.
      const order = round % 2 === 0 ? [options.a, options.b] : [options.b, options.a];
      for (const side of order) {
        options.log(`  round ${round + 1}/${options.rounds}: ${side.name}`);
        const server = servers.get(side)!;
        figures.get(side)!.push(await withCpu(server, () => options.measure(server.url)));
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  }
  return { a: summarise(options.a.name, figures.get(options.a)!), b: summarise(options.b.name, figures.get(options.b)!) };
}

/**
 * How `a` compares with `b` on one figure: "no measurable difference" when the ranges overlap,
 * else the ratio of the medians with the range of ratios the rounds allow.
 */
export function describeDifference(a: Spread, b: Spread): string {
  if (![a.median, b.median].every(Number.isFinite)) return 'n/a';
  if (overlaps(a, b)) return 'no measurable difference (ranges overlap)';
  return `${(a.median / b.median).toFixed(2)}x (range ${(a.min / b.max).toFixed(2)}x to ${(a.max / b.min).toFixed(2)}x)`;
}
