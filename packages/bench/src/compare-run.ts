// `pnpm bench -- --compare DIR`: before/after, this checkout's service against another checkout's
// (DIR, e.g. `git archive main | tar -x -C /tmp/main && (cd /tmp/main && pnpm install)`), as
// interleaved A/B rounds (ab.ts) on a search, on getInvoice and on the two writes (createInvoice and
// issueDelivery, each request with an Idempotency-Key of its own, as write-bench.ts sends them): req/s,
// CPU per request and latency, median and range, "no measurable difference" where the ranges overlap.
// Quick data set unless --full. `--searches 'NAME,...'` picks the search scenarios (by name or prefix);
// `--warm-up N` sets the requests each side is warmed with; `--baseline-database
// NAME` gives the baseline its own copy of the data set (made with CREATE DATABASE ... TEMPLATE, then
// rolled back to the baseline's schema), for a baseline older than the schema. Without it both sides write to the same database: the creates of one side
// lengthen the bench account's invoice list for the other alike, and the issues share one pool of drafts;
// with it each side writes to its own copy and issues that copy's drafts.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeProcesses, interleavedAb } from './ab.js';
import { copyDatabaseIfMissing, databaseUrl } from './dataset/postgres-admin.js';
import { preparedPostgresDatabase } from './dataset/prepare.js';
import type { Profile } from './profiles.js';
import { renderAb } from './report.js';
import { benchAccountId, getInvoiceScenario, searchScenarios } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import { benchInvoiceId } from './bench-invoice.js';
import type { Figures, Measure } from './figures.js';
import { migrateDownTo, mintDevToken, openDatabase } from './server-modules.js';
import { startService } from './service.js';
import { benchCreateInvoice, benchIssue, createDrafts, type DraftPool } from './write-bench.js';
import type { RunningServer } from './child-process.js';

export interface CompareRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  baselineDirectory: string;
  /**
   * The baseline's own copy of the data set, for a baseline whose migrations the data set's schema has
   * outgrown (its migrator refuses a database with a migration it does not know); default: the same database.
   */
  baselineDatabaseName?: string;
  /**
   * The search scenarios to compare, by name or name prefix (`order_by` is all ten orders); default
   * 'client_id ='. A before/after of how totals are answered names the searches whose totals changed.
   */
  searches?: readonly string[];
  log: (line: string) => void;
}

/** One load the two sides are compared under: `measure` for the rounds, and the warm-up. */
interface CompareLoad {
  name: string;
  run(serviceUrl: string, measure: Measure): Promise<Figures>;
}

/** Drafts for every issue of the compare: both sides' warm-ups and rounds, at well above the issue rate. */
function draftsForIssues(profile: Profile): number {
  const perMeasure = 'seconds' in profile.measure ? profile.measure.seconds * 2_000 : profile.measure.requests;
  return 2 * (profile.abRounds * perMeasure + profile.connections * 20) + 1_000;
}

/**
 * The baseline's copy of the data set, made once (CREATE DATABASE ... TEMPLATE) and brought back to the
 * newest migration the baseline knows by this checkout's own `down`s; its URL.
 */
async function prepareBaselineDatabase(options: CompareRunOptions, name: string): Promise<string> {
  const migrationsDirectory = join(resolve(options.baselineDirectory), 'packages/server/src/db/migrations');
  const known = (await readdir(migrationsDirectory)).filter((file) => file.endsWith('.ts')).map((file) => file.slice(0, -'.ts'.length));
  const newestKnown = known.sort().at(-1);
  if (newestKnown === undefined) throw new Error(`${migrationsDirectory} holds no migration`);
  if (await copyDatabaseIfMissing(options.postgresServerUrl, options.databaseName, name)) options.log(`compare: copied ${options.databaseName} to ${name}`);
  const url = databaseUrl(options.postgresServerUrl, name);
  const database = await openDatabase({ url });
  try {
    const undone = await migrateDownTo(database, newestKnown);
    for (const result of undone.results ?? []) options.log(`compare: ${name}: undid ${result.migrationName} (the baseline stops at ${newestKnown})`);
  } finally {
    await database.close();
  }
  return url;
}

export async function runCompare(options: CompareRunOptions): Promise<string> {
  const { profile, log } = options;
  const url = await preparedPostgresDatabase(options.postgresServerUrl, options.databaseName, profile.postgres, log);
  // The baseline as it was built, when it has a build; its sources through tsx otherwise.
  const baselineBuilt = join(resolve(options.baselineDirectory), 'packages/server/dist/main.js');
  const baselineEntry = existsSync(baselineBuilt) ? baselineBuilt : join(resolve(options.baselineDirectory), 'packages/server/src/main.ts');
  const keyDirectory = await mkdtemp(join(tmpdir(), 'invoice-bench-compare-'));
  try {
    const devKeyFile = join(keyDirectory, 'dev-key.json');
    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 3600 });
    const wanted = options.searches ?? ['client_id ='];
    const searches = searchScenarios(profile).filter((scenario) => wanted.some((name) => scenario.name.startsWith(name)));
    const unknown = wanted.filter((name) => !searches.some((scenario) => scenario.name.startsWith(name)));
    if (unknown.length > 0)
      throw new Error(
        `No search scenario is named ${unknown.join(', ')}; they are: ${searchScenarios(profile)
          .map((scenario) => scenario.name)
          .join(', ')}`,
      );
    const reads = [...searches, getInvoiceScenario(await benchInvoiceId(url))];
    const baselineUrl = options.baselineDatabaseName === undefined ? url : await prepareBaselineDatabase(options, options.baselineDatabaseName);
    const readLoads: CompareLoad[] = reads.map((scenario) => ({
      name: scenario.name,
      run: (serviceUrl: string, measure: Measure) => scenarioOnce(serviceUrl, token, scenario, profile.connections, measure),
    }));
    // The writes draw on a pool of drafts made in the database each side writes to: with a baseline
    // database, each side issues drafts of its own copy (the same rows in both, made alike).
    const separateDatabases = options.baselineDatabaseName !== undefined;
    const draftsOf = new Map<string, DraftPool>([[url, await createDrafts(url, draftsForIssues(profile))]]);
    if (separateDatabases) draftsOf.set(baselineUrl, await createDrafts(baselineUrl, draftsForIssues(profile)));
    // Which database the service at a URL writes to, recorded as each side starts.
    const databaseOfService = new Map<string, string>();
    const startWriting = async (databaseUrlOfSide: string, entry?: string): Promise<RunningServer> => {
      const server = await startService({ databaseUrl: databaseUrlOfSide, devKeyFile, ...(entry === undefined ? {} : { entry }) });
      databaseOfService.set(server.url, databaseUrlOfSide);
      return server;
    };
    const draftsFor = (serviceUrl: string): DraftPool => {
      const drafts = draftsOf.get(databaseOfService.get(serviceUrl) ?? '');
      if (drafts === undefined) throw new Error(`No drafts for the service at ${serviceUrl}`);
      return drafts;
    };
    const loads: CompareLoad[] = [
      ...readLoads,
      {
        name: 'createInvoice',
        run: (serviceUrl, measure) => benchCreateInvoice(serviceUrl, token, draftsFor(serviceUrl).contactId, profile.connections, measure),
      },
      { name: 'issueDelivery', run: (serviceUrl, measure) => benchIssue(serviceUrl, token, draftsFor(serviceUrl), profile.connections, measure) },
    ];
    const out = [
      `# Before/after: this checkout vs ${options.baselineDirectory} (${profile.postgres.invoices.toLocaleString('en-US')} invoices, ${profile.connections} connections${options.baselineDatabaseName === undefined ? '' : `; the baseline on its copy of the data set, ${options.baselineDatabaseName}`})`,
      '',
      `${profile.abRounds} interleaved rounds per side (this, baseline, then baseline, this, ...), ${describeProcesses(profile.abProcesses)}, warmed by the same requests first; median and range.`,
      ...(separateDatabases
        ? [
            '',
            "Each side reads and writes its own copy of the data set: the creates of one side lengthen only its own account's list, and each issues its own copy's drafts.",
          ]
        : []),
    ];
    for (const load of loads) {
      log(`compare: ${load.name}`);
      const ab = await interleavedAb({
        a: { name: 'this checkout', start: () => startWriting(url) },
        b: { name: 'baseline', start: () => startWriting(baselineUrl, baselineEntry) },
        rounds: profile.abRounds,
        processes: profile.abProcesses,
        measure: (serviceUrl) => load.run(serviceUrl, profile.measure),
        warmUp: (serviceUrl) => load.run(serviceUrl, { requests: profile.abWarmUpRequests }),
        log,
      });
      out.push('', `## ${load.name}`, '', renderAb(ab));
    }
    return out.join('\n');
  } finally {
    await rm(keyDirectory, { recursive: true, force: true });
  }
}
