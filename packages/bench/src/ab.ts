// A/B comparisons that can be trusted on a shared machine: interleaved rounds (A B, then B A, ...),
// reported as the median and the range of the rounds, every process started and warmed the same way
// (the same discarded requests) before it is measured. By default each round runs on a fresh process
// per side: two processes of the same build and settings differ measurably in CPU per request (JIT
// decisions, memory layout; RESULTS.md has an A/A table), which one process per side would report as
// a difference between the sides. `one per side` is for runs whose figures mean nothing
// (the smoke run), where every extra start is only time. Where the two ranges overlap the
// difference is within the noise and is said so instead of a ratio; a target holds only when the
// whole range meets it. The same with more than two sides (interleavedRounds): each round starts one
// side later (A B C, B C A, C A B).
import type { RunningServer } from './child-process.js';
import { combineStatementCosts, type DatabaseCpuMeter, type StatementCost } from './database-cpu.js';
import { withServerAndDatabaseCpu, type Figures } from './figures.js';

export interface AbSide {
  name: string;
  /** Starts a server of this side: once per round, or once for all rounds (`processes`). */
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
  /** PostgreSQL's backends' CPU per request, and the process's and theirs added round by round (NaN when not measured). */
  databaseCpuMsPerRequest: Spread;
  totalCpuMsPerRequest: Spread;
  /** Each statement's cost per request over all rounds, where the server has pg_stat_statements. */
  statements: StatementCost[] | undefined;
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

/** The process's CPU and PostgreSQL's backends' per request, added (NaN when either was not measured). */
export function totalCpuOf(figures: Figures): number {
  return (figures.cpuMsPerRequest ?? Number.NaN) + (figures.databaseCpuMsPerRequest ?? Number.NaN);
}

/** A side's rounds and the median and range of each of their figures. */
export function summarise(name: string, rounds: Figures[]): AbSideResult {
  return {
    name,
    rounds,
    requestsPerSecond: spread(rounds.map((figures) => figures.requestsPerSecond)),
    cpuMsPerRequest: spread(rounds.map((figures) => figures.cpuMsPerRequest ?? Number.NaN)),
    p50: spread(rounds.map((figures) => figures.p50)),
    p99: spread(rounds.map((figures) => figures.p99)),
    databaseCpuMsPerRequest: spread(rounds.map((figures) => figures.databaseCpuMsPerRequest ?? Number.NaN)),
    totalCpuMsPerRequest: spread(rounds.map(totalCpuOf)),
    statements: rounds.every((figures) => figures.statements !== undefined)
      ? combineStatementCosts(rounds.map((figures) => ({ requests: figures.requests, statements: figures.statements ?? [] })))
      : undefined,
  };
}

export interface RoundsOptions {
  /** Measured in this order in the first round; each round starts one side later than the one before. */
  sides: readonly AbSide[];
  rounds: number;
  /** One measurement against a server's URL. */
  measure(url: string): Promise<Figures>;
  /** The warm-up every fresh process gets before its measurement, the same on every side. */
  warmUp(url: string): Promise<unknown>;
  /** A fresh process per side and round (the default), or one per side for all its rounds. */
  processes?: AbProcesses;
  /** Also measure what PostgreSQL's backends spend in each round (database-cpu.ts). */
  database?: DatabaseCpuMeter;
  log(line: string): void;
}

export type AbProcesses = 'fresh per round' | 'one per side';

/** How a report names the processes its rounds ran on. */
export function describeProcesses(processes: AbProcesses): string {
  return processes === 'one per side' ? 'on one process per side for all its rounds' : 'each round on a fresh process per side';
}

export interface AbOptions extends Omit<RoundsOptions, 'sides'> {
  a: AbSide;
  b: AbSide;
}

/** Interleaved rounds on fresh processes (or one per side, `processes`); the results in the order of `sides`. */
export async function interleavedRounds(options: RoundsOptions): Promise<AbSideResult[]> {
  const { sides } = options;
  const keepProcesses = options.processes === 'one per side';
  const kept: Array<RunningServer | undefined> = sides.map(() => undefined);
  const figures: Figures[][] = sides.map(() => []);
  const started = async (side: AbSide): Promise<RunningServer> => {
    options.log(`  starting and warming: ${side.name}`);
    const server = await side.start();
    try {
      await options.warmUp(server.url);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  };
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      // Rotated (for two sides ABBA): whatever drifts during a run (the machine's other load, caches)
      // falls on every side alike, and no side is always measured first or last.
      const order = sides.map((_, position) => (position + round) % sides.length);
      for (const index of order) {
        const side = sides[index]!;
        const server = kept[index] ?? (await started(side));
        if (keepProcesses) kept[index] = server;
        options.log(`  round ${round + 1}/${options.rounds}: ${side.name}`);
        try {
          const measured = await withServerAndDatabaseCpu(server, options.database, () => options.measure(server.url));
          if (measured.errors > 0)
            options.log(
              `  round ${round + 1}/${options.rounds}: ${side.name}: ${measured.errors} failed, the first: ${measured.firstFailure ?? 'not described'}`,
            );
          figures[index]!.push(measured);
        } finally {
          // Stopped before the next side starts: only the measured process runs beside the load.
          if (!keepProcesses) await server.stop();
        }
      }
    }
  } finally {
    await Promise.all(kept.map((server) => server?.stop()));
  }
  return sides.map((side, index) => summarise(side.name, figures[index]!));
}

export async function interleavedAb(options: AbOptions): Promise<AbResult> {
  const { a, b, ...rounds } = options;
  const [resultA, resultB] = await interleavedRounds({ ...rounds, sides: [a, b] });
  return { a: resultA!, b: resultB! };
}

/**
 * `a` / `b` over the rounds: the ratio of the medians, and the range that every pairing of a round of
 * `a` with a round of `b` allows (lowest a over highest b, highest a over lowest b).
 */
export function ratioSpread(a: Spread, b: Spread): Spread {
  return { median: a.median / b.median, min: a.min / b.max, max: a.max / b.min };
}

/** The round-by-round ratios of two sides: their median and range, and how many rounds gave one. */
export interface RoundRatios extends Spread {
  /** Rounds where both sides measured the figure; a round where either did not is left out. */
  rounds: number;
  /** Rounds the sides ran. */
  of: number;
  /** Each round's ratio, in round order (NaN where either side has no figure). */
  ratios: number[];
}

/**
 * `a` / `b` round by round: the ratio of the two sides' figures measured in the same round (under a
 * minute apart in a run of a few sides), and the median and range of those ratios. A slow stretch
 * of the machine longer than a round falls on both sides of it, so on a noisy machine this range is
 * narrower than `ratioSpread`'s, which pairs the luckiest round of one side with the unluckiest of
 * the other. `a` and `b` must come from the same interleavedRounds run, whose rounds each side keeps
 * in round order.
 */
export function roundByRoundRatio(a: AbSideResult, b: AbSideResult, figure: (figures: Figures) => number | undefined): RoundRatios {
  if (a.rounds.length !== b.rounds.length) throw new Error(`${a.name} ran ${a.rounds.length} rounds and ${b.name} ${b.rounds.length}: no round-by-round ratio`);
  const ratios = a.rounds.map((round, index) => (figure(round) ?? Number.NaN) / (figure(b.rounds[index]!) ?? Number.NaN));
  return { ...spread(ratios), rounds: ratios.filter(Number.isFinite).length, of: ratios.length, ratios };
}

/**
 * How `a` compares with `b` on one figure: "no measurable difference" when the ranges overlap,
 * else the ratio of the medians with the range of ratios the rounds allow.
 */
export function describeDifference(a: Spread, b: Spread): string {
  if (![a.median, b.median].every(Number.isFinite)) return 'n/a';
  if (overlaps(a, b)) return 'no measurable difference (ranges overlap)';
  const ratio = ratioSpread(a, b);
  return `${ratio.median.toFixed(2)}x (range ${ratio.min.toFixed(2)}x to ${ratio.max.toFixed(2)}x)`;
}
