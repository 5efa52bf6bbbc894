// The smaller PGlite run: the data set loaded into a PGlite directory, each scenario's statements run
// on PGlite's one in-process session (its limit), then the service on that directory under the same
// HTTP load. PGlite allows one process per directory, so the two happen one after the other.
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './child-process.js';
import { prepareDataset } from './dataset/prepare.js';
import { sqlRunner } from './dataset/sql-runner.js';
import type { Figures } from './figures.js';
import { pgliteDeepOffset, type Profile } from './profiles.js';
import { runRawSqlOneSession } from './raw-sql.js';
import { benchAccountId, searchScenarios, type SearchScenario } from './scenarios.js';
import { searchOnce } from './search-bench.js';
import { raisedRateLimits } from './service.js';
import { searchRun, serviceSearchStatements } from './service-sql.js';
import { openDatabase } from './server-modules.js';

const pgliteServiceEntry = fileURLToPath(new URL('./pglite-service.ts', import.meta.url));

export interface PgliteRow {
  scenario: SearchScenario;
  service: Figures;
  rawSql: Figures;
}

export async function benchPglite(
  profile: Profile,
  dataDir: string,
  devKeyFile: string,
  token: string,
  log: (line: string) => void,
  /** More measurements on the PGlite service (the worst-case searches, the export), before it stops. */
  alsoMeasure?: (serviceUrl: string, service: RunningServer) => Promise<void>,
): Promise<PgliteRow[]> {
  const all = searchScenarios(profile, pgliteDeepOffset(profile));
  const scenarios = profile.pgliteAllScenarios ? all : all.filter((scenario) => !scenario.name.startsWith('order_by'));
  const database = await openDatabase({ dataDir });
  const rawFigures: Figures[] = [];
  try {
    await prepareDataset(database, profile.pglite, log);
    const sql = sqlRunner(database);
    for (const scenario of scenarios) {
      log(`  PGlite raw SQL: ${scenario.name}`);
      const statements = await serviceSearchStatements(benchAccountId, scenario.body);
      rawFigures.push(await runRawSqlOneSession((statement) => sql.query(statement.text, statement.values), searchRun(statements), profile.pgliteMeasure));
    }
  } finally {
    await database.close();
  }
  let service: RunningServer | undefined;
  try {
    service = await startServer({
      entry: pgliteServiceEntry,
      env: { BENCH_PGLITE_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits },
    });
    const rows: PgliteRow[] = [];
    for (const [index, scenario] of scenarios.entries()) {
      log(`  PGlite service: ${scenario.name}`);
      await searchOnce(service.url, token, scenario.body, profile.connections, { requests: profile.connections });
      const figures = await searchOnce(service.url, token, scenario.body, profile.connections, profile.pgliteMeasure);
      rows.push({ scenario, service: figures, rawSql: rawFigures[index]! });
    }
    await alsoMeasure?.(service.url, service);
    return rows;
  } finally {
    await service?.stop();
  }
}
