// What the exact total costs a search whose total is a sum of kept counts (search/total-plan.ts): for a
// single client, its first page (the total answered from the counts) against the same search's next
// page by cursor while nothing changed (the cursor carries the total: neither count nor sum runs), and
// the page's own statement run raw ("page only"), which shows the service's fixed cost per search.
import type { InvoiceSearchRequest } from '@invoice-api/contract';
import { invoicesVersion, search } from './cursor-deep-page.js';
import type { Measure } from './figures.js';
import { medianLatency } from './raw-sql.js';
import type { LatencyComparison } from './report.js';
import { benchAccountId, type SearchScenario } from './scenarios.js';
import { singleClientP50 } from './search-bench.js';
import { serviceSearchStatements } from './service-sql.js';

/** The target: the first page at most 1.3x the next page by cursor. */
export const firstPageMaxRatio = 1.3;

/** Whether the service answers this search's total from the kept counts: its total's statement reads them. */
export async function totalIsKept(body: InvoiceSearchRequest): Promise<boolean> {
  return /\binvoice_counts\b/.test((await serviceSearchStatements(benchAccountId, body)).count.text);
}

export interface FirstPageOptions {
  serviceUrl: string;
  token: string;
  /** The benchmark database: the account's invoices_version, and the page's statement run raw. */
  databaseUrl: string;
  scenario: SearchScenario;
  measure: Measure;
  /** How many times the raw statement runs for its median. */
  rawRuns: number;
}

export async function firstPageChecks(options: FirstPageOptions): Promise<LatencyComparison[]> {
  const { scenario } = options;
  const versionBefore = await invoicesVersion(options.databaseUrl);
  const first = await search(options.serviceUrl, options.token, scenario.body);
  if (first.status !== 200 || first.nextCursor === undefined)
    throw new Error(`'${scenario.name}' has no second page: ${first.status} ${first.text.slice(0, 300)}`);
  const firstP50 = await singleClientP50(options.serviceUrl, options.token, scenario.body, options.measure);
  const nextP50 = await singleClientP50(options.serviceUrl, options.token, { ...scenario.body, cursor: first.nextCursor }, options.measure);
  const versionAfter = await invoicesVersion(options.databaseUrl);
  if (versionAfter !== versionBefore) throw new Error(`The bench account's invoices changed while '${scenario.name}' was measured`);
  const { page } = await serviceSearchStatements(benchAccountId, scenario.body);
  return [
    {
      name: `first page '${scenario.name}' (exact total from kept counts)`,
      serviceP50: firstP50,
      reference: 'its next page by cursor',
      referenceP50: nextP50,
      maxRatio: firstPageMaxRatio,
    },
    {
      name: `first page '${scenario.name}': the service's fixed cost`,
      serviceP50: firstP50,
      reference: "the page's statement raw",
      referenceP50: await medianLatency(options.databaseUrl, page, options.rawRuns),
      maxRatio: undefined,
    },
  ];
}
