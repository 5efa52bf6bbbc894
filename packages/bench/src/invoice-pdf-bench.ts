// What the invoice as PDF costs beside getInvoice, its JSON: the same invoice, the same running service,
// the two reads measured in alternating rounds (getInvoice, PDF, PDF, getInvoice, ...) so that drift
// falls on both alike; the service's CPU per request and req/s of each, with their ranges, and the
// ratio. A PDF renders a document (pdfkit, an embedded font), a getInvoice serialises one object:
// the figure says how many PDFs a core renders, not a target to meet. A cached copy costs neither
// (If-None-Match answers 304 before rendering), so these are the uncached figures.
import { ratioSpread, spread, type Spread } from './ab.js';
import { benchInvoiceId } from './bench-invoice.js';
import { halfOf, withServerAndDatabaseCpu, type Figures } from './figures.js';
import { describeMeasure } from './profiles.js';
import { getInvoiceScenario, type SearchScenario } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import type { ReportSection, SectionContext } from './sections.js';
import { markdownTable } from './table.js';

function pdfScenario(invoiceId: number): SearchScenario {
  return { name: 'getInvoicePdf', body: {}, broad: false, getPath: `/api/v1/invoices/${invoiceId}/pdf` };
}

const format = (value: Spread, digits: number) => `${value.median.toFixed(digits)} (${value.min.toFixed(digits)} to ${value.max.toFixed(digits)})`;

export async function invoicePdfSection(context: SectionContext): Promise<ReportSection> {
  const { profile, service, token, log } = context;
  const started = performance.now();
  const invoiceId = await benchInvoiceId(context.databaseUrl);
  const scenarios = [getInvoiceScenario(invoiceId), pdfScenario(invoiceId)];
  const measure = halfOf(profile.measure);
  const figures: Figures[][] = scenarios.map(() => []);
  for (const scenario of scenarios) await scenarioOnce(service.url, token, scenario, profile.connections, { requests: profile.abWarmUpRequests / 10 });
  for (let round = 0; round < profile.abRounds; round += 1) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const scenario = scenarios[index]!;
      log(`  round ${round + 1}/${profile.abRounds}: ${scenario.name}`);
      const measured = await withServerAndDatabaseCpu(service, undefined, () => scenarioOnce(service.url, token, scenario, profile.connections, measure));
      if (measured.errors > 0) throw new Error(`${scenario.name}: ${measured.errors} requests failed, the first: ${measured.firstFailure ?? 'not described'}`);
      figures[index]!.push(measured);
    }
  }
  const [json, pdf] = figures.map((rounds) => ({
    cpu: spread(rounds.map((round) => round.cpuMsPerRequest ?? Number.NaN)),
    rate: spread(rounds.map((round) => round.requestsPerSecond)),
    p50: spread(rounds.map((round) => round.p50)),
  })) as [{ cpu: Spread; rate: Spread; p50: Spread }, { cpu: Spread; rate: Spread; p50: Spread }];
  const cpuRatio = ratioSpread(pdf.cpu, json.cpu);
  const rateRatio = ratioSpread(pdf.rate, json.rate);
  const seconds = (performance.now() - started) / 1000;
  const body = [
    `The same invoice read as JSON (getInvoice) and as PDF (getInvoicePdf) from the running service at ${profile.connections} connections, ` +
      `${profile.abRounds} alternating rounds of ${describeMeasure(measure)} each; median and range over the rounds. ` +
      `PDFs per second of one core: ${(1000 / pdf.cpu.median).toFixed(0)} (1000 / the service's CPU per PDF). This section took ${seconds.toFixed(0)} s.`,
    '',
    markdownTable(
      ['read', "service's CPU per request (ms)", 'req/s', 'p50 (ms)'],
      [
        ['getInvoice (JSON)', format(json.cpu, 3), format(json.rate, 0), format(json.p50, 2)],
        ['getInvoicePdf', format(pdf.cpu, 3), format(pdf.rate, 0), format(pdf.p50, 2)],
        ['PDF / JSON', `${cpuRatio.median.toFixed(1)}x (${cpuRatio.min.toFixed(1)}x to ${cpuRatio.max.toFixed(1)}x)`, `${rateRatio.median.toFixed(3)}x`, ''],
      ],
    ),
  ].join('\n');
  return {
    title: 'The invoice as PDF beside getInvoice',
    body,
    targets: [
      {
        target: 'PDFs per second and CPU per PDF, beside getInvoice (reported)',
        measured: `${(1000 / pdf.cpu.median).toFixed(0)} PDFs/s per core, ${cpuRatio.median.toFixed(1)}x getInvoice's CPU`,
        met: undefined,
      },
    ],
  };
}
