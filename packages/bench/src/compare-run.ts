// `pnpm bench -- --compare DIR`: before/after, this checkout's service against another checkout's
// (DIR, e.g. `git archive main | tar -x -C /tmp/main && (cd /tmp/main && pnpm install)`), as
// interleaved A/B rounds (ab.ts) on a search and on getInvoice: req/s and CPU per request, median and
// range, "no measurable difference" where the ranges overlap. Quick data set unless --full.
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
import { mintDevToken, openDatabase } from './server-modules.js';
import { startService } from './service.js';

export interface CompareRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  baselineDirectory: string;
  log: (line: string) => void;
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
    const scenarios = [...(search === undefined ? [] : [search]), getInvoiceScenario(await benchInvoiceId(url))];
    const out = [
      `# Before/after: this checkout vs ${options.baselineDirectory} (${profile.postgres.invoices.toLocaleString('en-US')} invoices, ${profile.connections} connections)`,
      '',
      `${profile.abRounds} interleaved rounds per side (this, baseline, then baseline, this, ...) on one process per side, both warmed by the same requests first; median and range.`,
    ];
    for (const scenario of scenarios) {
      log(`compare: ${scenario.name}`);
      const ab = await interleavedAb({
        a: { name: 'this checkout', start: () => startService({ databaseUrl: url, devKeyFile }) },
        b: { name: 'baseline', start: () => startService({ databaseUrl: url, devKeyFile, entry: baselineEntry }) },
        rounds: profile.abRounds,
        measure: (serviceUrl) => scenarioOnce(serviceUrl, token, scenario, profile.connections, profile.measure),
        warmUp: (serviceUrl) => scenarioOnce(serviceUrl, token, scenario, profile.connections, { requests: profile.connections * 20 }),
        log,
      });
      out.push('', `## ${scenario.name}`, '', renderAb(ab));
    }
    return out.join('\n');
  } finally {
    await rm(keyDirectory, { recursive: true, force: true });
  }
}
