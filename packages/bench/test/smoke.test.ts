// The benchmark runs end to end and prints its table: a tiny data set, a few requests per
// measurement. Timing targets are not checked here (the figures of a smoke run mean nothing);
// that every scenario produced numbers is.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pgliteDeepOffset, profiles } from '../src/profiles.js';
import { getInvoiceScenario, searchScenarios } from '../src/scenarios.js';

const run = promisify(execFile);
const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

/** The cells of the markdown table row whose first cell is `name`, or undefined. */
function row(report: string, name: string): string[] | undefined {
  const line = report.split('\n').find((candidate) => candidate.startsWith(`| ${name} `));
  return line
    ?.split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

const numeric = /^-?[\d,]+(\.\d+)?x?$/;
/** A figure of the export tables: the median, with its range when there were several rounds. */
const exportFigure = /^[\d,.]+( \([\d,.]+-[\d,.]+\))?$/;
const medianAndRange = /^[\d,.]+ \([\d,.]+ to [\d,.]+\)$/;

/** The report's section under `heading` (a `## ` line), up to the next one. */
function section(report: string, heading: string): string {
  const start = report.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end === -1 ? undefined : end);
}

describe('pnpm bench -- --smoke', () => {
  it('prints a row with numeric figures for every scenario, the writes and the targets', async () => {
    const database = `bench_smoke_${process.pid}`;
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--smoke', '--drop', '--database', database], {
      cwd: packageDirectory,
      maxBuffer: 10 * 1024 * 1024,
    });
    for (const scenario of [...searchScenarios(profiles.smoke), getInvoiceScenario(1)]) {
      const cells = row(stdout, scenario.name);
      expect(cells, scenario.name).toBeDefined();
      // req/s, p50, p99 for the service, raw SQL and bare Node, then the two ratios.
      for (const cell of cells!.slice(1, 12)) expect(cell, `${scenario.name}: ${cells!.join(' | ')}`).toMatch(numeric);
      expect(cells![14], scenario.name).toBe('0');
    }
    // What failed in an A/B round, as the run logged it (an errors cell below says only how many).
    const abFailures = stderr
      .split('\n')
      .filter((line) => line.includes(' failed, the first: '))
      .join('\n');
    // The CPU table: the scenario's row again, with the service's and the bare handler's CPU per request.
    const cpuSection = stdout.slice(stdout.indexOf('## CPU per request'), stdout.indexOf('## Single-client'));
    for (const scenario of [...searchScenarios(profiles.smoke), getInvoiceScenario(1)]) {
      const cells = row(cpuSection, scenario.name);
      expect(cells, `CPU row of ${scenario.name}`).toBeDefined();
      for (const cell of cells!.slice(1, 4)) expect(cell, `CPU of ${scenario.name}`).toMatch(numeric);
    }
    for (const name of ['issue delivery (a different draft each)', 'create invoice']) {
      const cells = row(stdout, name);
      expect(cells, name).toBeDefined();
      for (const cell of [...cells!.slice(1, 4), cells![6]!]) expect(cell, name).toMatch(numeric);
      expect(cells![5], name).toBe('0');
    }
    // The interleaved A/B: median (range) per side (req/s, CPU, p50, p99), then the rounds and the errors.
    for (const name of ['validation on', 'validation off']) {
      const cells = row(stdout, name);
      expect(cells, name).toBeDefined();
      for (const cell of cells!.slice(1, 5)) expect(cell, name).toMatch(/^[\d,.]+ \([\d,.]+ to [\d,.]+\)$/);
      expect(cells![6], `${name}\n${abFailures}`).toBe('0');
    }
    expect(stdout).toMatch(/Throughput, validation on \/ validation off: (no measurable difference|[\d.]+x \(range)/);
    // getInvoice and a search on bare node:http, on express alone with the same handler and through the
    // service: median (range) of each side, then both CPU ratios to bare node:http and their share of the budget.
    const floorStart = stdout.indexOf('## What express alone costs: getInvoice and a search');
    expect(floorStart, 'the express floor section').toBeGreaterThan(-1);
    const floorSection = stdout.slice(floorStart, stdout.indexOf('\n## ', floorStart + 1));
    for (const scenario of ['getInvoice', 'client_id =']) {
      const scenarioStart = floorSection.indexOf(`### ${scenario}\n`);
      expect(scenarioStart, `express floor: ${scenario}`).toBeGreaterThan(-1);
      const nextScenario = floorSection.indexOf('\n### ', scenarioStart + 1);
      const floor = floorSection.slice(scenarioStart, nextScenario === -1 ? undefined : nextScenario);
      for (const name of ['bare node:http', 'express alone (same handler)', 'service']) {
        const cells = row(floor, name);
        expect(cells, `express floor ${scenario}: ${name}`).toBeDefined();
        for (const cell of cells!.slice(1, 5)) expect(cell, `express floor ${scenario}: ${name}`).toMatch(/^[\d,.]+ \([\d,.]+ to [\d,.]+\)$/);
        expect(cells![6], `express floor ${scenario}: ${name}\n${abFailures}`).toBe('0');
      }
      for (const name of ['express alone / bare node:http', 'service / bare node:http']) {
        const cells = row(floor, name);
        expect(cells, `express floor ${scenario}: ${name}`).toBeDefined();
        expect(cells![1], name).toMatch(/^[\d.]+x \([\d.]+x to [\d.]+x\)$/);
        expect(cells![2], name).toMatch(/^\d+% \(\d+% to \d+%\)$/);
      }
      expect(floor).toMatch(
        new RegExp(`^Reading: express 5 alone, with the same handler and no middleware, spends [\\d.]+x bare Node's CPU per request of '${scenario}'`, 'm'),
      );
    }
    // What a team would write by hand: the service and the hand-wired peer in the same rounds, median
    // (range) per side, then the ratios the targets read and each target's row.
    const peerStart = stdout.indexOf('## What a team would write by hand: getInvoice and a search');
    expect(peerStart, 'the hand-wired peer section').toBeGreaterThan(-1);
    const peerSection = stdout.slice(peerStart, stdout.indexOf('\n## ', peerStart + 1));
    for (const scenario of ['getInvoice', 'client_id =']) {
      const scenarioStart = peerSection.indexOf(`### ${scenario}\n`);
      expect(scenarioStart, `hand-wired peer: ${scenario}`).toBeGreaterThan(-1);
      const nextScenario = peerSection.indexOf('\n### ', scenarioStart + 1);
      const part = peerSection.slice(scenarioStart, nextScenario === -1 ? undefined : nextScenario);
      for (const name of ['service', 'hand-wired peer']) {
        const cells = row(part, name);
        expect(cells, `hand-wired peer ${scenario}: ${name}`).toBeDefined();
        for (const cell of cells!.slice(1, 5)) expect(cell, `hand-wired peer ${scenario}: ${name}`).toMatch(/^[\d,.]+ \([\d,.]+ to [\d,.]+\)$/);
        expect(cells![6], `hand-wired peer ${scenario}: ${name}\n${abFailures}`).toBe('0');
      }
      for (const name of ['process CPU per request', 'requests per second']) {
        const cells = row(part, name);
        expect(cells, `hand-wired peer ${scenario}: ${name}`).toBeDefined();
        // Over every pairing of rounds, then round by round.
        for (const cell of cells!.slice(1, 3)) expect(cell, name).toMatch(/^[\d.]+x \([\d.]+x to [\d.]+x\)$/);
      }
      expect(stdout).toMatch(
        new RegExp(
          `\\| ${scenario}: the service's process CPU per request <= 0\\.8x the hand-wired peer's, whole range +\\| [\\d.]+x \\([\\d.]+x to [\\d.]+x\\) over every pairing of rounds; ` +
            'round by round [\\d.]+x \\([\\d.]+x to [\\d.]+x\\), at most 0\\.80x in \\d+ of \\d+ rounds',
        ),
      );
    }
    // Tracing's cost: the service without the preload, with it and tracing off, and tracing on exporting
    // to a loopback receiver, median (range) per side, then the two comparisons.
    const tracingStart = stdout.indexOf('## What tracing costs: off, and on with every request exported');
    expect(tracingStart, 'the tracing cost section').toBeGreaterThan(-1);
    const tracing = stdout.slice(tracingStart, stdout.indexOf('\n## ', tracingStart + 1));
    for (const name of ['without the preload', 'tracing off (preload, no OTEL variables)', 'tracing on (OTLP to a loopback receiver)']) {
      const cells = row(tracing, name);
      expect(cells, `tracing cost: ${name}`).toBeDefined();
      for (const cell of cells!.slice(1, 5)) expect(cell, `tracing cost: ${name}`).toMatch(/^[\d,.]+ \([\d,.]+ to [\d,.]+\)$/);
      expect(cells![6], `tracing cost: ${name}\n${abFailures}`).toBe('0');
    }
    for (const name of ['tracing off / without the preload', 'tracing on / tracing off']) {
      const cells = row(tracing, name);
      expect(cells, `tracing cost: ${name}`).toBeDefined();
      for (const cell of cells!.slice(1, 3)) expect(cell, name).toMatch(/^(no measurable difference \(ranges overlap\)|[\d.]+x \(range [\d.]+x to [\d.]+x\))$/);
    }
    // Start-up time: the compiled service's start on the bench database, and what `pnpm start` checks before node.
    const startup = section(stdout, '## Start-up time');
    const firstStart = row(startup, 'PostgreSQL, the bench database');
    expect(firstStart, 'start-up: PostgreSQL').toBeDefined();
    for (const cell of firstStart!.slice(2, 4)) expect(cell, 'start-up: PostgreSQL').toMatch(numeric);
    expect(row(startup, '`pnpm start` checks before node')?.[2], 'start-up: the checks before node').toMatch(numeric);
    // The CSV export against COPY on PostgreSQL (rows, MiB, rows/s, seconds), and alone on PGlite.
    const exportTable = section(stdout, '## The CSV export against PostgreSQL COPY');
    for (const name of ['service: POST /api/v1/invoices/export', 'PostgreSQL COPY ... TO STDOUT (psql)']) {
      const cells = row(exportTable, name);
      expect(cells, `export: ${name}`).toBeDefined();
      for (const cell of cells!.slice(1, 5)) expect(cell, `export: ${name}`).toMatch(exportFigure);
    }
    expect(exportTable).toMatch(/Service \/ COPY, rows per second, round by round: [\d.]+x/);
    const pgliteExport = row(section(stdout, '## The CSV export on PGlite'), 'service on PGlite');
    expect(pgliteExport, 'export on PGlite').toBeDefined();
    for (const cell of pgliteExport!.slice(1, 6)) expect(cell, 'export on PGlite').toMatch(exportFigure);
    // The invoice as PDF beside getInvoice: CPU, req/s and p50 of each, median (range), and their ratio.
    const pdf = section(stdout, '## The invoice as PDF beside getInvoice');
    for (const name of ['getInvoice (JSON)', 'getInvoicePdf']) {
      const cells = row(pdf, name);
      expect(cells, `PDF: ${name}`).toBeDefined();
      for (const cell of cells!.slice(1, 4)) expect(cell, `PDF: ${name}`).toMatch(medianAndRange);
    }
    expect(row(pdf, 'PDF / JSON')?.[1], 'PDF / JSON').toMatch(/^[\d.]+x \([\d.]+x to [\d.]+x\)$/);
    // PGlite: each of its scenarios through the service and as raw SQL on its one session, then the ratio.
    const pglite = section(
      stdout,
      `## PGlite (${profiles.smoke.pglite.invoices.toLocaleString('en-US')} invoices): the service vs the same SQL on PGlite's one in-process session`,
    );
    const pgliteScenarios = searchScenarios(profiles.smoke, pgliteDeepOffset(profiles.smoke)).filter(
      (scenario) => profiles.smoke.pgliteAllScenarios || !scenario.name.startsWith('order_by'),
    );
    for (const scenario of pgliteScenarios) {
      const cells = row(pglite, scenario.name);
      expect(cells, `PGlite: ${scenario.name}`).toBeDefined();
      for (const cell of cells!.slice(1, 8)) expect(cell, `PGlite: ${cells!.join(' | ')}`).toMatch(numeric);
      expect(cells![8], `PGlite: ${scenario.name}`).toBe('0');
    }
    // The worst-case searches, timed on both engines.
    for (const engine of ['PostgreSQL', 'PGlite']) expect(stdout).toMatch(new RegExp(`worst-case search on ${engine}, .*: [\\d.]+ ms \\(`));
    // Where the run's time went, part by part.
    expect(stdout).toMatch(/## Run time by part\n/);
    expect(stdout).toMatch(/\| all parts +\| [\d.]+ +\| 100% +\|/);
    expect(stdout).toMatch(/RAISED RATE LIMITS/);
    expect(stdout).toMatch(/\| pnpm generate \(--force\) < 5 s +\| [\d.]+ s/);
    expect(stdout).toMatch(/\| service peak RSS \(VmHWM\) +\| [\d,.]+ MiB/);
    expect(stdout).toMatch(/deep page \(offset [\d,]+\): p50 <= 0\.25x the naive OFFSET plan/);
    // Searches whose total is a sum of kept counts: the first page against its next page by cursor (a
    // target), and against the page's own statement run raw (reported); a counted one against its count.
    for (const name of ['no criteria', 'status = paid (half)']) {
      expect(stdout).toMatch(
        new RegExp(`first page '${name.replace(/[()]/g, '\\$&')}' \\(exact total from kept counts\\): p50 <= 1\\.30x its next page by cursor`),
      );
      expect(stdout).toMatch(
        new RegExp(
          `\\| first page '${name.replace(/[()]/g, '\\$&')}': the service's fixed cost +\\| [\\d,.]+ +\\| the page's statement raw +\\| [\\d,.]+ +\\| [\\d.]+x +\\| none \\(reported\\)`,
        ),
      );
    }
    expect(stdout).toMatch(/broad filter 'description like '\w+'': p50 <= 1\.20x its raw count\(\*\)/);
    // The page by cursor both ways: the total the cursor carries (a target), and recounted after a write (reported).
    expect(stdout).toMatch(/deep page by cursor \(position [\d,]+\): p50 <= 0\.30x the naive OFFSET plan/);
    expect(stdout).toMatch(
      /\| deep page by cursor after a write \(position [\d,]+, total recounted\) +\| [\d,.]+ +\| the naive OFFSET plan +\| [\d,.]+ +\| [\d.]+x +\| none \(reported\) +\| n\/a +\|/,
    );
  });
});
