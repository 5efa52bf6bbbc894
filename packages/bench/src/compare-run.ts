// `pnpm bench -- --compare DIR`: before/after, this checkout's service against another checkout's
// (DIR, e.g. `git archive main | tar -x -C /tmp/main && (cd /tmp/main && pnpm install)`), as
// interleaved A/B rounds (ab.ts) on a search, on getInvoice and on the two writes (createInvoice and
// issueDelivery, each request with an Idempotency-Key of its own, as write-bench.ts sends them): req/s,
// CPU per request and latency, median and range, "no measurable difference" where the ranges overlap.
// Quick data set unless --full. Both sides write to the same database: the creates of one side lengthen
// the bench account's invoice list for the other alike, and the issues share one pool of drafts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { interleavedAb } from './ab.js';
import { createDatabaseIfMissing, databaseUrl } from './dataset/postgres-admin.js';
import { prepareDataset } from './dataset/prepare.js';
import type { Profile } from './profiles.js';
import { renderAb } from './report.js';
import { benchAccountId, getInvoiceScenario, searchScenarios } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import { benchInvoiceId } from './bench-invoice.js';
import type { Figures, Measure } from './figures.js';
import { mintDevToken, openDatabase } from './server-modules.js';
import { startService } from './service.js';
import { benchCreateInvoice, benchIssue, createDrafts } from './write-bench.js';

export interface CompareRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  baselineDirectory: string;
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

export async function runCompare(options: CompareRunOptions): Promise<string> {
  const { profile, log } = options;
  const url = databaseUrl(options.postgresServerUrl, options.databaseName);
  await createDatabaseIfMissing(options.postgresServerUrl, options.databaseName);
  const database = await openDatabase({ url });
  try {
    await prepareDataset(database, profile.postgres, log);
  } finally {
    await database.close();
  }
  const baselineEntry = join(resolve(options.baselineDirectory), 'packages/server/src/main.ts');
  const keyDirectory = await mkdtemp(join(tmpdir(), 'invoice-bench-compare-'));
  try {
    const devKeyFile = join(keyDirectory, 'dev-key.json');
    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 3600 });
    const search = searchScenarios(profile).find((scenario) => scenario.name === 'client_id =');
    const reads = [...(search === undefined ? [] : [search]), getInvoiceScenario(await benchInvoiceId(url))];
    const drafts = await createDrafts(url, draftsForIssues(profile));
    const loads: CompareLoad[] = [
      ...reads.map((scenario) => ({
        name: scenario.name,
        run: (serviceUrl: string, measure: Measure) => scenarioOnce(serviceUrl, token, scenario, profile.connections, measure),
      })),
      { name: 'createInvoice', run: (serviceUrl, measure) => benchCreateInvoice(serviceUrl, token, drafts.contactId, profile.connections, measure) },
      { name: 'issueDelivery', run: (serviceUrl, measure) => benchIssue(serviceUrl, token, drafts, profile.connections, measure) },
    ];
    const out = [
      `# Before/after: this checkout vs ${options.baselineDirectory} (${profile.postgres.invoices.toLocaleString('en-US')} invoices, ${profile.connections} connections)`,
      '',
      `${profile.abRounds} interleaved rounds per side (this, baseline, then baseline, this, ...) on one process per side, both warmed by the same requests first; median and range.`,
    ];
    for (const load of loads) {
      log(`compare: ${load.name}`);
      const ab = await interleavedAb({
        a: { name: 'this checkout', start: () => startService({ databaseUrl: url, devKeyFile }) },
        b: { name: 'baseline', start: () => startService({ databaseUrl: url, devKeyFile, entry: baselineEntry }) },
        rounds: profile.abRounds,
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
