// getInvoice and the `client_id =` search three ways: the bare node:http handler, the same handler
// mounted on express 5 with no middleware, and the service. The CPU target is a multiple of the bare
// handler's CPU per request, and the architecture mandates express: the share of that multiple express
// takes before any of the service's own work is a floor that no change inside the service can go
// under. Reported as evidence beside the CPU target; it changes no verdict. The rounds are those of
// hand-wired.ts, which measures these sides and the hand-wired peer together.
import { overlaps, ratioSpread, type AbSideResult, type Spread } from './ab.js';
import { spreadText, times } from './format.js';
import { judgeRatio } from './ratio-target.js';
import { abSidesTable, maxCpuRatio } from './report.js';
import type { SectionTarget } from './sections.js';
import { markdownTable, type Cell } from './table.js';

const percent = (value: number): string => `${Math.round(value * 100)}%`;

/** A ratio to the bare handler's CPU per request, and what it takes of the target's budget. */
function ratioRow(name: string, ratio: Spread): Cell[] {
  const ofBudget: Spread = { median: ratio.median / maxCpuRatio, min: ratio.min / maxCpuRatio, max: ratio.max / maxCpuRatio };
  return [name, spreadText(ratio, times), spreadText(ofBudget, percent)];
}

/** The service's CPU per request at most this multiple of express alone's (the same handler, no middleware). */
export const maxExpressRatio = 1.5;

export interface FloorResult {
  body: string;
  targets: SectionTarget[];
}

export function expressFloorOf(scenario: string, measure: string, bare: AbSideResult, express: AbSideResult, service: AbSideResult): FloorResult {
  const expressRatio = ratioSpread(express.cpuMsPerRequest, bare.cpuMsPerRequest);
  const serviceRatio = ratioSpread(service.cpuMsPerRequest, bare.cpuMsPerRequest);
  const serviceToExpress = judgeRatio(service, express, (figures) => figures.cpuMsPerRequest, { bound: 'at most', limit: maxExpressRatio });
  const headroomMs = maxCpuRatio * bare.cpuMsPerRequest.median - express.cpuMsPerRequest.median;
  const left =
    headroomMs > 0
      ? `which leaves ${times(maxCpuRatio - expressRatio.median)} (${headroomMs.toFixed(3)} ms per request) for everything the service does beyond routing`
      : 'which leaves nothing for what the service does beyond routing';
  const noise = overlaps(express.cpuMsPerRequest, bare.cpuMsPerRequest)
    ? " (express's and bare Node's CPU ranges overlap in this run: the difference is within the noise)"
    : '';
  const reading =
    `Reading: express 5 alone, with the same handler and no middleware, spends ${times(expressRatio.median)} bare Node's CPU per request of '${scenario}', ` +
    `${percent(expressRatio.median / maxCpuRatio)} of the ${maxCpuRatio.toFixed(1)}x budget, ${left}; the service spends ${times(serviceRatio.median)}${noise}, ` +
    `${spreadText(serviceToExpress.anyPairing, times)} express alone's (${spreadText(serviceToExpress.byRound, times)} round by round).`;
  const body = [
    `### ${scenario}`,
    '',
    `${measure} per round.`,
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
    targets: [
      {
        target: `${scenario}: express alone (same handler, no middleware) CPU per request vs bare Node's, its share of the ${maxCpuRatio.toFixed(1)}x target`,
        measured: `${spreadText(expressRatio, times)}, ${percent(expressRatio.median / maxCpuRatio)} of the budget; service ${spreadText(serviceRatio, times)}`,
        met: undefined,
      },
      {
        target: `${scenario}: the service's process CPU per request <= ${maxExpressRatio.toFixed(1)}x express alone's, whole range`,
        measured: serviceToExpress.measured,
        met: serviceToExpress.met,
      },
    ],
  };
}
