// getInvoice and the `client_id =` search three ways: the bare node:http handler, the same handler
// mounted on express 5 with no middleware, and the service. The CPU target is a multiple of the bare
// handler's CPU per request, and the architecture mandates express: the share of that multiple express
// takes before any of the service's own work is a floor that no change inside the service can go
// under. Reported as evidence beside the CPU target; it changes no verdict.
import { describeProcesses, interleavedRounds, overlaps, ratioSpread, type AbSide, type Spread } from './ab.js';
import { startBare } from './bare.js';
import { benchInvoiceId } from './bench-invoice.js';
import { halfOf } from './figures.js';
import { describeMeasure } from './profiles.js';
import { abSidesTable, maxCpuRatio } from './report.js';
import { getInvoiceScenario, searchScenarios, type SearchScenario } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import type { ReportSection, SectionContext, SectionTarget } from './sections.js';
import { startService } from './service.js';
import { markdownTable, type Cell } from './table.js';

const times = (value: number): string => `${value.toFixed(2)}x`;
const percent = (value: number): string => `${Math.round(value * 100)}%`;
const spreadText = (value: Spread, format: (n: number) => string): string => `${format(value.median)} (${format(value.min)} to ${format(value.max)})`;

/** A ratio to the bare handler's CPU per request, and what it takes of the target's budget. */
function ratioRow(name: string, ratio: Spread): Cell[] {
  const ofBudget: Spread = { median: ratio.median / maxCpuRatio, min: ratio.min / maxCpuRatio, max: ratio.max / maxCpuRatio };
  return [name, spreadText(ratio, times), spreadText(ofBudget, percent)];
}

/** The search of one client's invoices: the search scenario whose service CPU is closest to bare Node's floor. */
const floorSearch = 'client_id =';

interface FloorResult {
  body: string;
  target: SectionTarget;
}

async function floorOf(context: SectionContext, scenario: SearchScenario): Promise<FloorResult> {
  const { profile, databaseUrl, token, log } = context;
  // Half the profile's measure per round: two scenarios, three sides, every round interleaved.
  const measure = halfOf(profile.measure);
  // Fresh processes rather than the run's running service and bare handler: those were warmed by
  // other requests, and every side here must have seen exactly the same ones.
  const sides: AbSide[] = [
    { name: 'bare node:http', start: () => startBare({ databaseUrl, poolSize: profile.connections }) },
    { name: 'express alone (same handler)', start: () => startBare({ databaseUrl, poolSize: profile.connections, framework: 'express' }) },
    { name: 'service', start: () => startService({ databaseUrl, devKeyFile: context.devKeyFile }) },
  ];
  log(`${scenario.name}: bare node:http vs express alone vs the service, ${profile.abRounds} interleaved rounds`);
  const [bare, express, service] = await interleavedRounds({
    sides,
    rounds: profile.abRounds,
    processes: profile.abProcesses,
    measure: (url) => scenarioOnce(url, token, scenario, profile.connections, measure),
    warmUp: (url) => scenarioOnce(url, token, scenario, profile.connections, { requests: profile.abWarmUpRequests }),
    log,
  });
  if (bare === undefined || express === undefined || service === undefined) throw new Error('interleavedRounds returned fewer sides than it was given');

  const expressRatio = ratioSpread(express.cpuMsPerRequest, bare.cpuMsPerRequest);
  const serviceRatio = ratioSpread(service.cpuMsPerRequest, bare.cpuMsPerRequest);
  const headroomMs = maxCpuRatio * bare.cpuMsPerRequest.median - express.cpuMsPerRequest.median;
  const left =
    headroomMs > 0
      ? `which leaves ${times(maxCpuRatio - expressRatio.median)} (${headroomMs.toFixed(3)} ms per request) for everything the service does beyond routing`
      : 'which leaves nothing for what the service does beyond routing';
  const noise = overlaps(express.cpuMsPerRequest, bare.cpuMsPerRequest)
    ? " (express's and bare Node's CPU ranges overlap in this run: the difference is within the noise)"
    : '';
  const reading =
    `Reading: express 5 alone, with the same handler and no middleware, spends ${times(expressRatio.median)} bare Node's CPU per request of '${scenario.name}', ` +
    `${percent(expressRatio.median / maxCpuRatio)} of the ${maxCpuRatio.toFixed(1)}x budget, ${left}; the service spends ${times(serviceRatio.median)}${noise}.`;
  const body = [
    `### ${scenario.name}`,
    '',
    `${describeMeasure(measure)} per round.`,
    '',
    abSidesTable([bare, express, service]),
    '',
    markdownTable(
      ['ratio', 'CPU per request, median (range)', `of the ${maxCpuRatio.toFixed(1)}x budget, median (range)`],
      [ratioRow('express alone / bare node:http', expressRatio), ratioRow('service / bare node:http', serviceRatio)],
    ),
    '',
    reading,
  ].join('\n');
  return {
    body,
    target: {
      target: `${scenario.name}: express alone (same handler, no middleware) CPU per request vs bare Node's, its share of the ${maxCpuRatio.toFixed(1)}x target`,
      measured: `${spreadText(expressRatio, times)}, ${percent(expressRatio.median / maxCpuRatio)} of the budget; service ${spreadText(serviceRatio, times)}`,
      met: undefined,
    },
  };
}

export async function expressFloorSection(context: SectionContext): Promise<ReportSection> {
  const { profile, databaseUrl } = context;
  const started = performance.now();
  const search = searchScenarios(profile).find((scenario) => scenario.name === floorSearch);
  if (search === undefined) throw new Error(`No search scenario named '${floorSearch}'`);
  const floors: FloorResult[] = [];
  for (const scenario of [getInvoiceScenario(await benchInvoiceId(databaseUrl)), search]) floors.push(await floorOf(context, scenario));
  const seconds = (performance.now() - started) / 1000;
  const body = [
    `Per scenario, ${profile.abRounds} interleaved rounds per side (the order rotated each round: bare, express, service; express, service, bare; ...) ` +
      `at ${profile.connections} connections, ${describeProcesses(profile.abProcesses)}, warmed first by the same ${profile.abWarmUpRequests.toLocaleString('en-US')} ` +
      'discarded requests; median and range over the rounds. "express alone" is bare-server.ts\'s handler mounted as a route of an express 5 app with ' +
      'no middleware (X-Powered-By and ETag off), answering with the same writeHead and end; both run the SQL the service runs, captured once. ' +
      'CPU ratios to bare node:http: the ratio of the medians, and the range over every pairing of a round of one side with a round of the other. ' +
      `This section took ${seconds.toFixed(0)} s.`,
    '',
    ...floors.map((floor) => floor.body),
  ].join('\n');
  return { title: 'What express alone costs: getInvoice and a search', body, targets: floors.map((floor) => floor.target) };
}
