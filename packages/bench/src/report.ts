// Turns the figures of one run into the printed report: tables and the verdict on every target.
import { describeDifference, type AbResult, type AbSideResult, type Spread, describeProcesses } from './ab.js';
import type { Figures } from './figures.js';
import type { MachineFacts } from './machine.js';
import { describeMeasure, type Profile } from './profiles.js';
import type { PgliteRow } from './pglite-bench.js';
import type { SearchRow } from './search-bench.js';
import type { ReportSection } from './sections.js';
import { formatNumber, markdownTable, ratio, type Cell } from './table.js';

export interface LatencyComparison {
  name: string;
  serviceP50: number;
  reference: string;
  referenceP50: number;
  /** The target: service p50 at most this multiple of the reference (deep page: at most 1/4); undefined: reported, no target. */
  maxRatio: number | undefined;
}

export interface ValidationFigures {
  scenario: string;
  /** What "off" switched off. */
  switched: string;
  /** Interleaved rounds: a = validation on (the service as deployed), b = validation off. */
  ab: AbResult;
}

/** The CPU target: the service's CPU per request at most this multiple of the bare handler's. */
export const maxCpuRatio = 2.0;

/** The validation target: validation on keeps at least this share of the throughput with it off. */
export const minValidationShare = 0.75;

export interface RunResults {
  profile: Profile;
  machine: MachineFacts;
  invoices: number;
  connections: number;
  searches: SearchRow[];
  latencies: LatencyComparison[];
  issue: Figures;
  createInvoice: Figures;
  validation: ValidationFigures | undefined;
  /** Sections of further benchmarks (sections.ts), each with its own targets. */
  sections: ReportSection[];
  generateSeconds: number;
  peakRssMiB: number;
  pglite: PgliteRow[] | undefined;
  pgliteInvoices: number;
  /** Single-client medians of the two deep-page plans (ms), when measured. */
  deepPagePlans: { naive: number; deferredJoin: number } | undefined;
  notes: string[];
  /** Seconds each part of the run took, in run order (the report's last table). */
  parts?: ReadonlyArray<{ name: string; seconds: number }>;
}

/** The database is the limit when Node alone nearly keeps up with the raw SQL; otherwise Node is. */
export function limitOf(row: SearchRow): 'database' | 'node' {
  return row.bareNode.requestsPerSecond >= 0.8 * row.rawSql.requestsPerSecond ? 'database' : 'node';
}

/** Service CPU per request over the bare handler's, NaN when either was not measured. */
export function cpuRatio(row: SearchRow): number {
  return (row.service.cpuMsPerRequest ?? Number.NaN) / (row.bareNode.cpuMsPerRequest ?? Number.NaN);
}

export function cpuTargetMet(row: SearchRow): boolean {
  return cpuRatio(row) <= maxCpuRatio;
}

/** False when a side completed no request in its measurement (no CPU per request to compare). */
export function cpuMeasured(row: SearchRow): boolean {
  return Number.isFinite(cpuRatio(row));
}

export function searchTargetMet(row: SearchRow): boolean {
  return limitOf(row) === 'database'
    ? row.service.requestsPerSecond >= 0.8 * row.rawSql.requestsPerSecond
    : row.service.requestsPerSecond >= 0.5 * row.bareNode.requestsPerSecond;
}

const yesNo = (met: boolean): string => (met ? 'yes' : 'NO');

/** The req/s, p50 and p99 cells of one measured target. */
const figureCells = (figures: Figures): Cell[] => [figures.requestsPerSecond, figures.p50, figures.p99];

function searchTable(rows: readonly SearchRow[]): string {
  const headers = [
    'scenario',
    'service req/s',
    'p50 ms',
    'p99 ms',
    'raw SQL req/s',
    'p50 ms',
    'p99 ms',
    'bare Node req/s',
    'p50 ms',
    'p99 ms',
    'service/raw SQL',
    'service/bare Node',
    'limit',
    'target met',
    'errors',
  ];
  const body = rows.map((row): Cell[] => [
    row.scenario.name,
    ...figureCells(row.service),
    ...figureCells(row.rawSql),
    ...figureCells(row.bareNode),
    ratio(row.service.requestsPerSecond, row.rawSql.requestsPerSecond),
    ratio(row.service.requestsPerSecond, row.bareNode.requestsPerSecond),
    limitOf(row),
    yesNo(searchTargetMet(row)),
    String(row.service.errors + row.rawSql.errors + row.bareNode.errors),
  ]);
  return markdownTable(headers, body);
}

function figuresRow(name: string, figures: Figures): Cell[] {
  return [name, figures.requestsPerSecond, figures.p50, figures.p99, String(figures.requests), String(figures.errors), cpuCell(figures.cpuMsPerRequest)];
}

/** CPU milliseconds per request with three decimals (a search costs about a millisecond). */
function cpuCell(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? 'n/a' : ms.toFixed(3);
}

function cpuTable(rows: readonly SearchRow[]): string {
  return markdownTable(
    ['scenario', 'service CPU ms/req', 'bare Node CPU ms/req', 'service/bare Node', `target <= ${maxCpuRatio.toFixed(1)}x met`],
    rows.map((row): Cell[] => [
      row.scenario.name,
      cpuCell(row.service.cpuMsPerRequest),
      cpuCell(row.bareNode.cpuMsPerRequest),
      cpuMeasured(row) ? `${cpuRatio(row).toFixed(2)}x` : 'n/a',
      cpuMeasured(row) ? yesNo(cpuTargetMet(row)) : 'n/a (not measured)',
    ]),
  );
}

const spreadCell = (value: Spread, format: (n: number) => string): string => `${format(value.median)} (${format(value.min)} to ${format(value.max)})`;

function abSideRow(side: AbSideResult, withDatabase: boolean): Cell[] {
  const cpu = (value: Spread): string => (Number.isFinite(value.median) ? spreadCell(value, (n) => n.toFixed(3)) : 'n/a');
  return [
    side.name,
    spreadCell(side.requestsPerSecond, (n) => formatNumber(n)),
    spreadCell(side.cpuMsPerRequest, (n) => n.toFixed(3)),
    spreadCell(side.p50, (n) => formatNumber(n)),
    spreadCell(side.p99, (n) => formatNumber(n)),
    side.rounds.map((round) => formatNumber(round.requestsPerSecond)).join(', '),
    String(side.rounds.reduce((sum, round) => sum + round.errors, 0)),
    ...(withDatabase ? [cpu(side.databaseCpuMsPerRequest), cpu(side.totalCpuMsPerRequest)] : []),
  ];
}

/**
 * Interleaved rounds as a table: the median and range of each side, its req/s round by round; and,
 * when the rounds measured PostgreSQL's CPU, its CPU per request and the process's and its together.
 */
export function abSidesTable(sides: readonly AbSideResult[]): string {
  const withDatabase = sides.some((side) => Number.isFinite(side.databaseCpuMsPerRequest.median));
  return markdownTable(
    [
      'side',
      'req/s median (range)',
      'CPU ms/req median (range)',
      'p50 ms median (range)',
      'p99 ms median (range)',
      'req/s per round',
      'errors',
      ...(withDatabase ? ["PostgreSQL's CPU ms/req median (range)", 'process + PostgreSQL ms/req median (range)'] : []),
    ],
    sides.map((side) => abSideRow(side, withDatabase)),
  );
}

/** An interleaved A/B as a table (median and range of each side) and its two comparisons. */
export function renderAb(ab: AbResult): string {
  return [
    abSidesTable([ab.a, ab.b]),
    '',
    `Throughput, ${ab.a.name} / ${ab.b.name}: ${describeDifference(ab.a.requestsPerSecond, ab.b.requestsPerSecond)}.`,
    `CPU per request, ${ab.a.name} / ${ab.b.name}: ${describeDifference(ab.a.cpuMsPerRequest, ab.b.cpuMsPerRequest)}.`,
  ].join('\n');
}

/** Validation on keeps >= 0.75x of "off"'s throughput in every pairing of rounds (the whole range). */
export function validationShare(ab: AbResult): { worst: number; median: number } {
  return { worst: ab.a.requestsPerSecond.min / ab.b.requestsPerSecond.max, median: ab.a.requestsPerSecond.median / ab.b.requestsPerSecond.median };
}

export function renderReport(results: RunResults): string {
  const { machine, profile } = results;
  const out: string[] = [];
  out.push(`# Benchmark (${profile.name}): ${results.invoices.toLocaleString('en-US')} invoices on PostgreSQL`);
  out.push('');
  out.push(`Machine: ${machine.cores} cores (nproc), ${machine.cpuModel}; memory ${machine.memory}; Node ${machine.node}; ${machine.postgres}.`);
  out.push(
    `Load: ${results.connections} connections per generator, ${describeMeasure(profile.measure)} per measurement, all on loopback` +
      `${profile.alternateHalves ? ' (the service and the bare handler in alternating halves: service, bare, bare, service)' : ' (the service, then the bare handler)'}. ` +
      'The service runs with RAISED RATE LIMITS (100,000,000 per window for every policy) so that the limiter is in the path but never refuses.',
  );
  out.push('');
  out.push('## Search: service vs the same SQL run directly vs a bare node:http + pg handler');
  out.push('');
  out.push(searchTable(results.searches));
  out.push('');
  out.push('## CPU per request: the service process vs the bare node:http handler');
  out.push('');
  out.push(
    "Process CPU time (every thread, the scheduler's account in /proc/<pid>/task/*/schedstat, else /proc/<pid>/stat) over the requests completed in the same measurement as the table above. " +
      'The service runs with request and response validation on, logging at info and the rate limiter in the path.',
  );
  out.push('');
  out.push(cpuTable(results.searches));
  out.push('');
  out.push('## Single-client latency checks');
  out.push('');
  out.push(
    markdownTable(
      ['check', 'service p50 ms', 'reference', 'reference p50 ms', 'ratio', 'target', 'met'],
      results.latencies.map((entry): Cell[] => [
        entry.name,
        entry.serviceP50,
        entry.reference,
        entry.referenceP50,
        ratio(entry.serviceP50, entry.referenceP50),
        entry.maxRatio === undefined ? 'none (reported)' : `<= ${entry.maxRatio.toFixed(2)}x`,
        entry.maxRatio === undefined ? 'n/a' : yesNo(entry.serviceP50 <= entry.maxRatio * entry.referenceP50),
      ]),
    ),
  );
  out.push('');
  if (results.deepPagePlans !== undefined) {
    out.push(
      `Deep page, raw SQL, single client: naive OFFSET plan ${formatNumber(results.deepPagePlans.naive)} ms; deferred join (ids from the index, then 50 rows) ${formatNumber(results.deepPagePlans.deferredJoin)} ms (${ratio(results.deepPagePlans.deferredJoin, results.deepPagePlans.naive)} of naive).`,
    );
    out.push('');
  }
  out.push('## Writes through the service (PostgreSQL)');
  out.push('');
  out.push(
    markdownTable(
      ['operation', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'service CPU ms/req'],
      [figuresRow('issue delivery (a different draft each)', results.issue), figuresRow('create invoice', results.createInvoice)],
    ),
  );
  out.push('');
  if (results.validation !== undefined) {
    const v = results.validation;
    out.push(`## Validation on vs off (${v.scenario}; off: ${v.switched})`);
    out.push('');
    out.push(
      `${v.ab.a.rounds.length} interleaved rounds per side (on, off, then off, on, ...), ${describeProcesses(results.profile.abProcesses)}, started and warmed by the same discarded requests before it is measured; median and range over the rounds.`,
    );
    out.push('');
    out.push(renderAb(v.ab));
    out.push('');
  }
  for (const section of results.sections) {
    out.push(`## ${section.title}`);
    out.push('');
    out.push(section.body);
    out.push('');
  }
  if (results.pglite !== undefined) {
    out.push(`## PGlite (${results.pgliteInvoices.toLocaleString('en-US')} invoices): the service vs the same SQL on PGlite's one in-process session`);
    out.push('');
    out.push(
      markdownTable(
        ['scenario', 'service req/s', 'p50 ms', 'p99 ms', 'raw SQL req/s', 'p50 ms', 'p99 ms', 'service/raw SQL', 'errors'],
        results.pglite.map((row): Cell[] => [
          row.scenario.name,
          ...figureCells(row.service),
          ...figureCells(row.rawSql),
          ratio(row.service.requestsPerSecond, row.rawSql.requestsPerSecond),
          String(row.service.errors + row.rawSql.errors),
        ]),
      ),
    );
    out.push('');
  }
  out.push('## Targets');
  out.push('');
  out.push(markdownTable(['target', 'measured', 'met'], targetRows(results)));
  if (results.notes.length > 0) {
    out.push('');
    out.push('Notes:');
    for (const note of results.notes) out.push(`- ${note}`);
  }
  if (results.parts !== undefined && results.parts.length > 0) {
    const total = results.parts.reduce((sum, part) => sum + part.seconds, 0);
    out.push('');
    out.push('## Run time by part');
    out.push('');
    out.push(
      markdownTable(
        ['part', 'seconds', 'share'],
        [
          ...results.parts.map((part): Cell[] => [part.name, part.seconds.toFixed(1), `${Math.round((part.seconds / total) * 100)}%`]),
          ['all parts', total.toFixed(1), '100%'],
        ],
      ),
    );
  }
  return out.join('\n');
}

function targetRows(results: RunResults): Cell[][] {
  const rows: Cell[][] = [];
  const searchMisses = results.searches.filter((row) => !searchTargetMet(row));
  rows.push([
    'every search >= 0.8x raw SQL (database-bound) / >= 0.5x bare Node (Node-bound)',
    searchMisses.length === 0 ? `all ${results.searches.length} scenarios` : `missed: ${searchMisses.map((row) => row.scenario.name).join('; ')}`,
    yesNo(searchMisses.length === 0),
  ]);
  for (const entry of results.latencies) {
    if (entry.maxRatio === undefined) continue;
    rows.push([
      `${entry.name}: p50 <= ${entry.maxRatio.toFixed(2)}x ${entry.reference}`,
      `${formatNumber(entry.serviceP50)} ms vs ${formatNumber(entry.referenceP50)} ms`,
      yesNo(entry.serviceP50 <= entry.maxRatio * entry.referenceP50),
    ]);
  }
  rows.push([
    'issue >= 500/s with p99 < 50 ms (PostgreSQL)',
    `${formatNumber(results.issue.requestsPerSecond)}/s, p99 ${formatNumber(results.issue.p99)} ms, ${results.issue.errors} errors`,
    yesNo(results.issue.requestsPerSecond >= 500 && results.issue.p99 < 50 && results.issue.errors === 0),
  ]);
  const cpuMisses = results.searches.filter((row) => cpuMeasured(row) && !cpuTargetMet(row));
  const cpuUnmeasured = results.searches.filter((row) => !cpuMeasured(row));
  const unmeasured = cpuUnmeasured.length === 0 ? '' : `; not measured (no request completed): ${cpuUnmeasured.map((row) => row.scenario.name).join('; ')}`;
  rows.push([
    `service CPU per request <= ${maxCpuRatio.toFixed(1)}x bare Node's, every search and getInvoice`,
    (cpuMisses.length === 0
      ? `all ${results.searches.length - cpuUnmeasured.length} measured scenarios (worst ${Math.max(...results.searches.filter(cpuMeasured).map(cpuRatio)).toFixed(2)}x)`
      : `missed: ${cpuMisses.map((row) => `${row.scenario.name} ${cpuRatio(row).toFixed(2)}x`).join('; ')}`) + unmeasured,
    yesNo(cpuMisses.length === 0 && cpuUnmeasured.length === 0),
  ]);
  rows.push([
    'create invoice >= 500/s (PostgreSQL)',
    `${formatNumber(results.createInvoice.requestsPerSecond)}/s, p99 ${formatNumber(results.createInvoice.p99)} ms, ${results.createInvoice.errors} errors`,
    yesNo(results.createInvoice.requestsPerSecond >= 500 && results.createInvoice.errors === 0),
  ]);
  if (results.validation !== undefined) {
    const share = validationShare(results.validation.ab);
    rows.push([
      `validation on >= ${minValidationShare}x validation off, whole range (${results.validation.switched})`,
      `worst pairing ${share.worst.toFixed(2)}x, medians ${share.median.toFixed(2)}x; ${describeDifference(results.validation.ab.a.requestsPerSecond, results.validation.ab.b.requestsPerSecond)}`,
      yesNo(share.worst >= minValidationShare),
    ]);
  }
  for (const section of results.sections) {
    for (const target of section.targets) rows.push([target.target, target.measured, target.met === undefined ? 'n/a' : yesNo(target.met)]);
  }
  rows.push(['pnpm generate (--force) < 5 s', `${results.generateSeconds.toFixed(2)} s`, yesNo(results.generateSeconds < 5)]);
  rows.push(['service peak RSS (VmHWM)', `${formatNumber(results.peakRssMiB)} MiB`, 'n/a']);
  return rows;
}
