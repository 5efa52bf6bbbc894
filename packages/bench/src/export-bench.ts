// The CSV export (exportInvoices) against the limit of any exporter on the same database: PostgreSQL's
// own `COPY (select ...) TO STDOUT WITH (FORMAT csv)` of the same columns, filter and order, run by
// psql into a byte counter. Both are read whole by this process and counted (rows: line feeds; the
// bench's descriptions hold none), in interleaved rounds (COPY then the service, then the other way
// round), after one discarded run of each (JIT, plans, page cache). While the service exports, its
// resident memory (VmRSS in /proc/<pid>/status) is sampled every 50 ms against its value just before:
// a streamed export holds one batch, not the account. The same export on PGlite is measured alone
// (rows/s and memory; PGlite has no COPY to a client), on the PGlite run's own service.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { spread, type Spread } from './ab.js';
import type { RunningServer } from './child-process.js';
import { benchAccountId } from './scenarios.js';
import { invoiceColumns } from './server-modules.js';
import type { ReportSection, SectionContext, SectionTarget } from './sections.js';
import { formatNumber, markdownTable } from './table.js';

/** The targets: at least half of COPY's rows per second, and a peak RSS growth under 64 MiB. */
export const minCopyRatio = 0.5;
export const maxRssGrowthMiB = 64;

/** Interleaved rounds per side; each reads the whole big account (95 % of the invoices). */
function roundsFor(context: Pick<SectionContext, 'profile'>): number {
  return context.profile.name === 'smoke' ? 1 : 3;
}

export interface ExportRun {
  rows: number;
  bytes: number;
  seconds: number;
  /** The exporting process's peak VmRSS during the run minus its VmRSS just before, in MiB (the service only). */
  rssGrowthMiB: number;
}

const timestamp = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The service's default export (no criteria, newest first) as one COPY: the export's columns as the
 * export writes them (export/invoice-csv.ts), the account's rows in the same order. One line: psql's
 * `-c` takes it as it is.
 */
export function copyStatement(accountId: number): string {
  const columns = invoiceColumns.map((column) => (column === 'created_at' || column === 'updated_at' ? timestamp(column) : column));
  return `copy (select ${columns.join(', ')} from invoices where account_id = ${Number(accountId)} order by created_at desc, id desc) to stdout with (format csv)`;
}

async function vmRssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kib === undefined ? Number.NaN : Number(kib);
}

/** Samples a process's VmRSS every 50 ms until stopped; resolves with the peak growth over `before`, in MiB. */
function rssSampler(pid: number, beforeKiB: number): { stop(): Promise<number> } {
  let peak = beforeKiB;
  let pending: Promise<void> = Promise.resolve();
  const sample = () => {
    pending = vmRssKiB(pid).then((kib) => {
      if (kib > peak) peak = kib;
    });
  };
  const timer = setInterval(sample, 50);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      sample();
      await pending;
      return (peak - beforeKiB) / 1024;
    },
  };
}

/** Counts a stream's bytes and line feeds. */
function counter(): { add(chunk: Buffer): void; rows(): number; bytes(): number } {
  let bytes = 0;
  let lineFeeds = 0;
  return {
    add(chunk) {
      bytes += chunk.length;
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lineFeeds += 1;
    },
    rows: () => lineFeeds,
    bytes: () => bytes,
  };
}

/** POSTs an empty export body to `url` and feeds every chunk of a 200 answer to `add`. */
function readExport(url: string, token: string, add: (chunk: Buffer) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const body = '{}';
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(body.length) };
    const outgoing = request(`${url}/api/v1/invoices/export`, { method: 'POST', headers }, (incoming) => {
      if (incoming.statusCode !== 200) {
        incoming.resume();
        reject(new Error(`The export answered ${incoming.statusCode}`));
        return;
      }
      incoming.on('data', add);
      incoming.on('end', resolve);
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** One export through the service's HTTP API, read whole as it arrives; the header line is not a row. */
export async function serviceExport(server: RunningServer, token: string): Promise<ExportRun> {
  const pid = server.process.pid;
  if (pid === undefined) throw new Error('The service has no process id: its memory cannot be read');
  const sampler = rssSampler(pid, await vmRssKiB(pid));
  const counted = counter();
  const started = performance.now();
  try {
    await readExport(server.url, token, counted.add);
  } catch (error) {
    // No sampling left running under the next measurement.
    await sampler.stop();
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  return { rows: counted.rows() - 1, bytes: counted.bytes(), seconds, rssGrowthMiB: await sampler.stop() };
}

/** Runs `psql -c <command>` against `databaseUrl`, counting what it writes; the time from spawn to exit. */
async function psql(databaseUrl: string, command: string): Promise<{ rows: number; bytes: number; seconds: number }> {
  const counted = counter();
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', databaseUrl, '-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stdout.on('data', counted.add);
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}: ${errors.trim()}`))));
  });
  return { rows: counted.rows(), bytes: counted.bytes(), seconds: (performance.now() - started) / 1000 };
}

/**
 * psql's own start and connection, the median of three `select 1`: taken off COPY's time, so that
 * COPY is measured as the database's export alone (the stricter comparison for the service).
 */
async function psqlStartSeconds(databaseUrl: string): Promise<number> {
  const runs: number[] = [];
  for (let index = 0; index < 3; index += 1) runs.push((await psql(databaseUrl, 'select 1')).seconds);
  return spread(runs).median;
}

/** COPY of the same rows through psql, read whole; psql's start taken off its time. */
async function copyExport(databaseUrl: string, accountId: number, startSeconds: number): Promise<ExportRun> {
  const run = await psql(databaseUrl, copyStatement(accountId));
  return { rows: run.rows, bytes: run.bytes, seconds: Math.max(run.seconds - startSeconds, 1e-6), rssGrowthMiB: Number.NaN };
}

const rowsPerSecond = (run: ExportRun) => run.rows / run.seconds;
const describeSpread = (value: Spread, digits = 1) =>
  value.min === value.max
    ? formatNumber(value.median, digits)
    : `${formatNumber(value.median, digits)} (${formatNumber(value.min, digits)}-${formatNumber(value.max, digits)})`;

/** The export on PostgreSQL against COPY, in interleaved rounds, and its memory. */
export async function exportSection(context: SectionContext): Promise<ReportSection> {
  const { databaseUrl, service, token, log } = context;
  const started = performance.now();
  const rounds = roundsFor(context);
  log(`export: the service's CSV export vs COPY ... TO STDOUT, ${rounds} interleaved rounds`);
  const startSeconds = await psqlStartSeconds(databaseUrl);
  // Discarded: the first export compiles the handler's path and the statement; the first COPY reads the heap into the page cache.
  await serviceExport(service, token);
  await copyExport(databaseUrl, benchAccountId, startSeconds);
  const services: ExportRun[] = [];
  const copies: ExportRun[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      copies.push(await copyExport(databaseUrl, benchAccountId, startSeconds));
      services.push(await serviceExport(service, token));
    } else {
      services.push(await serviceExport(service, token));
      copies.push(await copyExport(databaseUrl, benchAccountId, startSeconds));
    }
    log(
      `  round ${round + 1}: service ${formatNumber(rowsPerSecond(services.at(-1)!))} rows/s, COPY ${formatNumber(rowsPerSecond(copies.at(-1)!))} rows/s, peak RSS growth ${services.at(-1)!.rssGrowthMiB.toFixed(1)} MiB`,
    );
  }
  for (const [index, run] of services.entries()) {
    if (run.rows !== copies[index]?.rows)
      throw new Error(`The export sent ${run.rows} rows where COPY sent ${copies[index]?.rows}: they do not read the same rows`);
  }
  const serviceRate = spread(services.map(rowsPerSecond));
  const copyRate = spread(copies.map(rowsPerSecond));
  // Each round's service against the same round's COPY: both met the same background load.
  const ratios = spread(services.map((run, index) => rowsPerSecond(run) / rowsPerSecond(copies[index]!)));
  const rssGrowth = spread(services.map((run) => run.rssGrowthMiB));
  const rows = services[0]?.rows ?? 0;
  const seconds = (performance.now() - started) / 1000;
  const body = [
    `The bench account's ${rows.toLocaleString('en-US')} invoices (no criteria, newest first), read whole over loopback by one client, ` +
      `${rounds} interleaved round(s) per side after one discarded run of each; median and range. COPY is psql running ` +
      `\`COPY (select <the export's columns> ... order by created_at desc, id desc) TO STDOUT WITH (FORMAT csv)\`, its own start ` +
      `(${formatNumber(startSeconds * 1000)} ms, \`select 1\`) taken off. RSS growth: the service's peak VmRSS during the export (sampled every 50 ms) ` +
      `minus its VmRSS just before. This section took ${seconds.toFixed(0)} s.`,
    '',
    markdownTable(
      ['side', 'rows', 'MiB sent', 'rows/s', 'seconds', 'peak RSS growth MiB'],
      [
        [
          'service: POST /api/v1/invoices/export',
          rows.toLocaleString('en-US'),
          formatNumber((services[0]?.bytes ?? 0) / 2 ** 20),
          describeSpread(serviceRate),
          describeSpread(spread(services.map((run) => run.seconds)), 2),
          describeSpread(rssGrowth),
        ],
        [
          'PostgreSQL COPY ... TO STDOUT (psql)',
          (copies[0]?.rows ?? 0).toLocaleString('en-US'),
          formatNumber((copies[0]?.bytes ?? 0) / 2 ** 20),
          describeSpread(copyRate),
          describeSpread(spread(copies.map((run) => run.seconds)), 2),
          'n/a',
        ],
      ],
    ),
    '',
    `Service / COPY, rows per second, round by round: ${describeSpread(ratios, 2)}x.`,
    // In order: a round's growth depends on whether the heap the round before grew was released since.
    `The service's peak RSS growth, round after round: ${services.map((run) => run.rssGrowthMiB.toFixed(1)).join(', ')} MiB.`,
  ].join('\n');
  const targets: SectionTarget[] = [
    {
      target: `Export at least ${minCopyRatio}x COPY's rows/s (PostgreSQL, ${rows.toLocaleString('en-US')} rows)`,
      measured: `${describeSpread(ratios, 2)}x`,
      met: ratios.min >= minCopyRatio,
    },
    {
      target: `Export's peak RSS growth under ${maxRssGrowthMiB} MiB (PostgreSQL, ${rows.toLocaleString('en-US')} rows)`,
      measured: `${describeSpread(rssGrowth)} MiB`,
      met: rssGrowth.max < maxRssGrowthMiB,
    },
  ];
  return { title: 'The CSV export against PostgreSQL COPY', body, targets };
}

/** The export on PGlite, alone: rows per second and the service's memory, in the PGlite run's service. */
export async function pgliteExportSection(service: RunningServer, token: string, rounds: number, log: (line: string) => void): Promise<ReportSection> {
  log(`  PGlite service: the CSV export, ${rounds} round(s)`);
  await serviceExport(service, token);
  const runs: ExportRun[] = [];
  for (let round = 0; round < rounds; round += 1) runs.push(await serviceExport(service, token));
  const rate = spread(runs.map(rowsPerSecond));
  const rssGrowth = spread(runs.map((run) => run.rssGrowthMiB));
  const rows = runs[0]?.rows ?? 0;
  const body = [
    `The bench account's ${rows.toLocaleString('en-US')} invoices on PGlite (one session shared by every request), read whole by one client, ` +
      `${rounds} round(s) after one discarded run; median and range.`,
    '',
    markdownTable(
      ['side', 'rows', 'MiB sent', 'rows/s', 'seconds', 'peak RSS growth MiB'],
      [
        [
          'service on PGlite',
          rows.toLocaleString('en-US'),
          formatNumber((runs[0]?.bytes ?? 0) / 2 ** 20),
          describeSpread(rate),
          describeSpread(spread(runs.map((run) => run.seconds)), 2),
          describeSpread(rssGrowth),
        ],
      ],
    ),
  ].join('\n');
  return {
    title: 'The CSV export on PGlite',
    body,
    targets: [
      { target: `PGlite export's rows/s (${rows.toLocaleString('en-US')} rows)`, measured: describeSpread(rate), met: undefined },
      {
        target: `PGlite export's peak RSS growth under ${maxRssGrowthMiB} MiB (${rows.toLocaleString('en-US')} rows)`,
        measured: `${describeSpread(rssGrowth)} MiB`,
        met: rssGrowth.max < maxRssGrowthMiB,
      },
    ],
  };
}

export { roundsFor as exportRounds };
