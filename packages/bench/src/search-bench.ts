// Every read scenario three ways, back to back: through the service, as the same SQL run directly
// (the database's limit), and through the bare node:http handler (Node's limit). The service and the
// bare handler are measured with their CPU time per request as well as req/s and latency.
import type { RunningServer } from './child-process.js';
import { combineFigures, halfOf, withCpu, type Figures, type Measure } from './figures.js';
import { runHttpLoad } from './http-load.js';
import { runRawSql } from './raw-sql.js';
import { benchAccountId, type SearchScenario } from './scenarios.js';
import { searchRun, serviceGetInvoiceStatement, serviceSearchStatements, type Statement } from './service-sql.js';

export interface SearchRow {
  scenario: SearchScenario;
  service: Figures;
  rawSql: Figures;
  bareNode: Figures;
}

export interface SearchBenchOptions {
  service: RunningServer;
  bare: RunningServer;
  databaseUrl: string;
  token: string;
  connections: number;
  measure: Measure;
  /** Each scenario's warm-up of both processes before any scenario is measured. */
  warmUpEach: Measure;
  /** Service and bare handler in alternating halves of `measure` (service, bare, bare, service), or one `measure` each. */
  alternateHalves: boolean;
  log: (line: string) => void;
}

const searchPath = '/api/v1/invoices/search';

export async function searchOnce(url: string, token: string, body: unknown, connections: number, measure: Measure): Promise<Figures> {
  return runHttpLoad({
    url,
    method: 'POST',
    path: searchPath,
    headers: { authorization: `Bearer ${token}` },
    body,
    connections,
    measure,
    expectStatus: 200,
  });
}

/**
 * The median latency of one search for a single client: a few discarded requests first (they plan and
 * cache what the measured ones reuse, as for every other row), then `measure`; any failed request throws.
 */
export async function singleClientP50(url: string, token: string, body: unknown, measure: Measure): Promise<number> {
  await searchOnce(url, token, body, 1, { requests: 3 });
  const figures = await searchOnce(url, token, body, 1, measure);
  if (figures.errors > 0) throw new Error(`${figures.errors} of the requests for ${JSON.stringify(body).slice(0, 200)} failed`);
  return figures.p50;
}

/** One scenario's request (a search, or the GET it names) under load. */
export function scenarioOnce(url: string, token: string, scenario: SearchScenario, connections: number, measure: Measure): Promise<Figures> {
  if (scenario.getPath === undefined) return searchOnce(url, token, scenario.body, connections, measure);
  return runHttpLoad({ url, method: 'GET', path: scenario.getPath, headers: { authorization: `Bearer ${token}` }, connections, measure, expectStatus: 200 });
}

/** The statements the service runs for the scenario, in its order (a search: its page with the total, or page and count). */
export async function scenarioStatements(scenario: SearchScenario): Promise<Statement[]> {
  if (scenario.getInvoiceId !== undefined) return [await serviceGetInvoiceStatement(benchAccountId, scenario.getInvoiceId)];
  return searchRun(await serviceSearchStatements(benchAccountId, scenario.body));
}

export async function benchSearches(scenarios: readonly SearchScenario[], options: SearchBenchOptions): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  const warmUp: Measure = { requests: options.connections };
  // Both processes see every request shape before the first measurement, so that the first scenarios
  // do not measure the service's JIT warming up (a bare handler has much less code to optimise).
  options.log('  warming the service and the bare handler with every scenario');
  for (const scenario of scenarios) {
    await scenarioOnce(options.service.url, options.token, scenario, options.connections, options.warmUpEach);
    await scenarioOnce(options.bare.url, options.token, scenario, options.connections, options.warmUpEach);
  }
  for (const scenario of scenarios) {
    options.log(`  ${scenario.getPath === undefined ? 'search' : 'read'}: ${scenario.name}`);
    const statements = await scenarioStatements(scenario);
    await scenarioOnce(options.service.url, options.token, scenario, options.connections, warmUp);
    await scenarioOnce(options.bare.url, options.token, scenario, options.connections, warmUp);
    // Service and bare handler in two halves each, service-bare-bare-service: the machine's other load
    // drifts over seconds, and this way both sides meet the same drift (their CPU ratio is the target).
    // Without alternating halves (the quick run), one measurement each.
    const each = options.alternateHalves ? halfOf(options.measure) : options.measure;
    const measure = (server: RunningServer) => withCpu(server, () => scenarioOnce(server.url, options.token, scenario, options.connections, each));
    const services: Figures[] = [await measure(options.service)];
    const bares: Figures[] = [await measure(options.bare)];
    if (options.alternateHalves) {
      bares.push(await measure(options.bare));
      services.push(await measure(options.service));
    }
    const rawSql = await runRawSql(statements, { url: options.databaseUrl, connections: options.connections, measure: options.measure });
    rows.push({ scenario, service: combineFigures(services), rawSql, bareNode: combineFigures(bares) });
  }
  return rows;
}
