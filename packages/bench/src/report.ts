// Turns the figures of one run into the printed report: tables and the verdict on every target.
import type { Figures } from './figures.js';
import type { MachineFacts } from './machine.js';
import { describeMeasure, type Profile } from './profiles.js';
import type { PgliteRow } from './pglite-bench.js';
import type { SearchRow } from './search-bench.js';
import { formatNumber, markdownTable, ratio, type Cell } from './table.js';

export interface LatencyComparison {
  name: string;
  serviceP50: number;
  reference: string;
  referenceP50: number;
  /** The target: service p50 at most this multiple of the reference (deep page: at most 1/4). */
  maxRatio: number;
}

export interface ValidationFigures {
  scenario: string;
  /** Request and response validation on (the service as deployed). */
  on: Figures;
  /** Both off: the whole validation overhead, which the target compares against. */
  off: Figures;
  /** What `off` switched off. */
  switched: string;
  /** Only response validation off (RESPONSE_VALIDATION=off). */
  responseOff?: Figures;
  /** Only request validation off (REQUEST_VALIDATION=off, a benchmark-only setting). */
  requestOff?: Figures;
}

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
  generateSeconds: number;
  peakRssMiB: number;
  pglite: PgliteRow[] | undefined;
  pgliteInvoices: number;
  /** Single-client medians of the two deep-page plans (ms), when measured. */
  deepPagePlans: { naive: number; deferredJoin: number } | undefined;
  notes: string[];
}

/** The database is the limit when Node alone nearly keeps up with the raw SQL; otherwise Node is. */
export function limitOf(row: SearchRow): 'database' | 'node' {
  return row.bareNode.requestsPerSecond >= 0.8 * row.rawSql.requestsPerSecond ? 'database' : 'node';
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
  return [name, figures.requestsPerSecond, figures.p50, figures.p99, String(figures.requests), String(figures.errors)];
}

export function renderReport(results: RunResults): string {
  const { machine, profile } = results;
  const out: string[] = [];
  out.push(`# Benchmark (${profile.name}): ${results.invoices.toLocaleString('en-US')} invoices on PostgreSQL`);
  out.push('');
  out.push(`Machine: ${machine.cores} cores (nproc), ${machine.cpuModel}; memory ${machine.memory}; Node ${machine.node}; ${machine.postgres}.`);
  out.push(
    `Load: ${results.connections} connections per generator, ${describeMeasure(profile.measure)} per measurement, all on loopback. ` +
      'The service runs with RAISED RATE LIMITS (100,000,000 per window for every policy) so that the limiter is in the path but never refuses.',
  );
  out.push('');
  out.push('## Search: service vs the same SQL run directly vs a bare node:http + pg handler');
  out.push('');
  out.push(searchTable(results.searches));
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
        `<= ${entry.maxRatio.toFixed(2)}x`,
        yesNo(entry.serviceP50 <= entry.maxRatio * entry.referenceP50),
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
      ['operation', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors'],
      [figuresRow('issue delivery (a different draft each)', results.issue), figuresRow('create invoice', results.createInvoice)],
    ),
  );
  out.push('');
  if (results.validation !== undefined) {
    const v = results.validation;
    out.push(`## Validation overhead (${v.scenario}; switched off: ${v.switched})`);
    out.push('');
    const rows = [figuresRow('validation on', v.on)];
    if (v.requestOff !== undefined) rows.push(figuresRow('request validation off (REQUEST_VALIDATION=off)', v.requestOff));
    if (v.responseOff !== undefined) rows.push(figuresRow('response validation off (RESPONSE_VALIDATION=off)', v.responseOff));
    rows.push(figuresRow('validation off', v.off));
    out.push(markdownTable(['service', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors'], rows));
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
  if (results.validation !== undefined) {
    const share = results.validation.on.requestsPerSecond / results.validation.off.requestsPerSecond;
    rows.push([`validation on >= 0.75x validation off (${results.validation.switched})`, `${share.toFixed(2)}x`, yesNo(share >= 0.75)]);
    for (const [side, figures] of [
      ['request', results.validation.requestOff],
      ['response', results.validation.responseOff],
    ] as const) {
      if (figures === undefined) continue;
      rows.push([
        `${side} validation's share (on vs only ${side} validation off)`,
        `${(results.validation.on.requestsPerSecond / figures.requestsPerSecond).toFixed(2)}x`,
        'n/a',
      ]);
    }
  }
  rows.push(['pnpm generate (--force) < 5 s', `${results.generateSeconds.toFixed(2)} s`, yesNo(results.generateSeconds < 5)]);
  rows.push(['service peak RSS (VmHWM)', `${formatNumber(results.peakRssMiB)} MiB`, 'n/a']);
  return rows;
}
