// Every search scenario three ways, back to back: through the service, as the same SQL run directly
// (the database's limit), and through the bare node:http handler (Node's limit).
import type { Figures, Measure } from './figures.js';
import { runHttpLoad } from './http-load.js';
import { runRawSql } from './raw-sql.js';
import { benchAccountId, type SearchScenario } from './scenarios.js';
import { serviceSearchStatements } from './service-sql.js';

export interface SearchRow {
  scenario: SearchScenario;
  service: Figures;
  rawSql: Figures;
  bareNode: Figures;
}

export interface SearchBenchOptions {
  serviceUrl: string;
  bareUrl: string;
  databaseUrl: string;
  token: string;
  connections: number;
  measure: Measure;
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

export async function benchSearches(scenarios: readonly SearchScenario[], options: SearchBenchOptions): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  const warmUp: Measure = { requests: options.connections };
  for (const scenario of scenarios) {
    options.log(`  search: ${scenario.name}`);
    const statements = await serviceSearchStatements(benchAccountId, scenario.body);
    await searchOnce(options.serviceUrl, options.token, scenario.body, options.connections, warmUp);
    const service = await searchOnce(options.serviceUrl, options.token, scenario.body, options.connections, options.measure);
    const rawSql = await runRawSql([statements.page, statements.count], {
      url: options.databaseUrl,
      connections: options.connections,
      measure: options.measure,
    });
    await searchOnce(options.bareUrl, options.token, scenario.body, options.connections, warmUp);
    const bareNode = await searchOnce(options.bareUrl, options.token, scenario.body, options.connections, options.measure);
    rows.push({ scenario, service, rawSql, bareNode });
  }
  return rows;
}
