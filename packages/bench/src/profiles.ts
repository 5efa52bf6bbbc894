// The three sizes the benchmark runs at. `full` is the committed RESULTS.md run, `quick` a shorter check
// on a tenth of the data, `smoke` the test suite's proof that the harness runs and prints its table.

import type { AbProcesses } from './ab.js';
import type { Measure } from './figures.js';

export type ProfileName = 'full' | 'quick' | 'smoke';

export interface DatasetSize {
  invoices: number;
  /** Company clients, spread over the accounts like the invoices. */
  clients: number;
  /** Accounts; the first holds most of the invoices, as one big customer does. */
  accounts: number;
  /** Deliveries loaded with the data set (issued and draft), before any benchmark drafts. */
  deliveries: number;
}

export interface Profile {
  name: ProfileName;
  postgres: DatasetSize;
  /** PGlite is single-threaded and loads about 2x slower: it gets a smaller data set. */
  pglite: DatasetSize;
  /** How long each measurement (one autocannon run or one raw SQL loop) lasts. */
  measure: Measure;
  /** The offset of the deep-page scenario: 900,000 at a million rows, within the big account's share. */
  deepOffset: number;
  /** PGlite run: its measure, and whether it covers every search scenario or the filters only. */
  pgliteMeasure: Measure;
  pgliteAllScenarios: boolean;
  /** Rounds per side of every interleaved A/B comparison (ab.ts). */
  abRounds: number;
  /**
   * Requests each side of an A/B gets before its first round, the same number on both sides: enough
   * for V8 to have optimised the request path, or the first round of each side measures the JIT.
   */
  abWarmUpRequests: number;
  /**
   * A fresh process per A/B round and side, or one per side (ab.ts): where the figures mean nothing
   * (smoke), and in the quick run, whose budget the starts and warm-ups of fresh processes would take.
   */
  abProcesses: AbProcesses;
  /**
   * Share processes between sections (server-share.ts): a side started exactly like a process still
   * running is measured on that process. Only where the figures mean nothing (smoke): it saves starts,
   * but the process has served other sections' requests before its own warm-up.
   */
  shareProcesses: boolean;
  /**
   * Start-up section: starts measured after the first (whose files are not yet in the page cache), per
   * engine. Each costs a process start of seconds; three already give a median.
   */
  laterStarts: number;
  /** The search table's warm-up of the service and the bare handler, per scenario and side, before any is measured. */
  searchWarmUp: Measure;
  /**
   * The search table measures the service and the bare handler in alternating halves (service, bare,
   * bare, service) so that both meet the same drift; without, one measurement each (service, bare).
   */
  alternateHalves: boolean;
  /** `--compare DIR`'s rounds: their length and processes (its before/after is read from them). */
  compare: { measure: Measure; processes: AbProcesses };
  /** Connections of every load generator: autocannon, the raw SQL loop, the bare handler's pool. */
  connections: number;
}

function dataset(invoices: number): DatasetSize {
  return {
    invoices,
    clients: Math.max(50, Math.min(5_000, Math.round(invoices / 200))),
    accounts: 4,
    deliveries: Math.max(100, Math.min(5_000, Math.round(invoices / 200))),
  };
}

/** The big account holds this share of the invoices (see dataset/load.ts). */
export const bigAccountShare = 0.95;

function deepOffsetFor(invoices: number): number {
  return Math.floor((invoices * 0.9) / 1_000) * 1_000 || 100;
}

export const profiles: Readonly<Record<ProfileName, Profile>> = {
  full: {
    name: 'full',
    postgres: dataset(1_000_000),
    pglite: dataset(200_000),
    measure: { seconds: 10 },
    pgliteMeasure: { seconds: 3 },
    pgliteAllScenarios: true,
    deepOffset: 900_000,
    connections: 10,
    abRounds: 3,
    abWarmUpRequests: 3_000,
    abProcesses: 'fresh per round',
    shareProcesses: false,
    laterStarts: 5,
    searchWarmUp: { seconds: 1 },
    alternateHalves: true,
    compare: { measure: { seconds: 10 }, processes: 'fresh per round' },
  },
  // Within 5 minutes on two cores: measurements of 1 s (autocannon's shortest), the search table's
  // sides one after the other instead of in alternating halves, its warm-up by requests instead of a
  // second per scenario, every A/B section on one process per side (warmed once by the same 2,500
  // requests: a service's CPU per request still falls until about 2,000), where fresh processes per
  // round spent most of the run starting and warming processes, and two starts after the first in
  // the start-up section. The full run keeps them.
  quick: {
    name: 'quick',
    postgres: dataset(100_000),
    pglite: dataset(20_000),
    measure: { seconds: 1 },
    pgliteMeasure: { requests: 10 },
    pgliteAllScenarios: false,
    deepOffset: deepOffsetFor(100_000),
    connections: 10,
    // Rounds of 1 s vary by a third on the 2-core machine; five make the range of a ratio worth reading.
    abRounds: 5,
    abWarmUpRequests: 2_500,
    abProcesses: 'one per side',
    shareProcesses: false,
    laterStarts: 2,
    searchWarmUp: { requests: 50 },
    alternateHalves: false,
    compare: { measure: { seconds: 2 }, processes: 'fresh per round' },
  },
  smoke: {
    name: 'smoke',
    postgres: dataset(3_000),
    pglite: dataset(1_000),
    // Every measurement only has to produce its figures: halves of five requests still give each of them.
    measure: { requests: 10 },
    pgliteMeasure: { requests: 5 },
    pgliteAllScenarios: false,
    deepOffset: deepOffsetFor(3_000),
    // Two at a time still runs every load concurrently; each more connection is one more PostgreSQL
    // backend per process that plans every statement again, and one more request per warm-up.
    connections: 2,
    // Two rounds still print a median and a range, which is all the smoke run checks.
    abRounds: 2,
    // The warm-up runs on every side; what it warms counts for nothing here.
    abWarmUpRequests: 10,
    // Its figures mean nothing: a fresh process per round would only add service starts to the suite.
    abProcesses: 'one per side',
    shareProcesses: true,
    // One start on PostgreSQL (each costs the seconds of CPU the section measures).
    laterStarts: 0,
    // One request of each scenario per side: the warm-up runs; each scenario still warms its connections right before it is measured.
    searchWarmUp: { requests: 1 },
    alternateHalves: true,
    compare: { measure: { requests: 20 }, processes: 'one per side' },
  },
};

/** The deep page of the PGlite run: at the same share of its smaller data set. */
export function pgliteDeepOffset(profile: Profile): number {
  return deepOffsetFor(profile.pglite.invoices);
}

export function describeMeasure(measure: Measure): string {
  return 'seconds' in measure ? `${measure.seconds} s` : `${measure.requests} requests`;
}
