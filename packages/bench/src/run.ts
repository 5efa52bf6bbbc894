// One benchmark run from start to report: data set, processes, every measurement, cleanup.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningServer } from './child-process.js';
import { createDatabaseIfMissing, databaseUrl, dropDatabase } from './dataset/postgres-admin.js';
import { prepareDataset } from './dataset/prepare.js';
import { interleavedAb } from './ab.js';
import { startBare } from './bare.js';
import { benchInvoiceId } from './bench-invoice.js';
import { withCpu, type Figures, type Measure } from './figures.js';
import { machineFacts } from './machine.js';
import type { Profile } from './profiles.js';
import { renderReport, type LatencyComparison, type RunResults, type ValidationFigures } from './report.js';
import { medianLatency } from './raw-sql.js';
import { benchPglite } from './pglite-bench.js';
import { benchAccountId, getInvoiceScenario, searchScenarios } from './scenarios.js';
import { benchSearches, searchOnce } from './search-bench.js';
import { cursorDeepPages } from './cursor-deep-page.js';
import { deferredJoinDeepPage, naiveDeepPage } from './deep-page.js';
import { exportRounds, pgliteExportSection } from './export-bench.js';
import { extraSections, type ReportSection } from './sections.js';
import { worstCaseLines } from './worst-case.js';
import { serviceSearchStatements } from './service-sql.js';
import { firstPageChecks, totalIsKept } from './first-page.js';
import { openDatabase, mintDevToken } from './server-modules.js';
import { ServerShare } from './server-share.js';
import { startService } from './service.js';
import { benchCreateInvoice, benchIssue, createDrafts } from './write-bench.js';

export interface RunOptions {
  profile: Profile;
  /** A PostgreSQL server URL (any database); the run uses its own database on that server. */
  postgresServerUrl: string;
  /** Drop the benchmark database at the end (the smoke test does; full and quick keep it for reruns). */
  dropDatabaseAfter: boolean;
  /** Name of the benchmark database; default `bench_<profile>`. */
  databaseName?: string;
  log: (line: string) => void;
}

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Seconds `node scripts/generate.mjs --force` takes (what `pnpm generate` runs, forced to redo
 * everything), written to a scratch folder: rewriting packages/contract/generated under a running
 * Prism (which watches its spec file and reloads) took the contract suite's mock down mid-run.
 */
function timeGenerate(): number {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-generate-'));
  try {
    const started = performance.now();
    execFileSync(process.execPath, ['scripts/generate.mjs', '--force', '--out', outDir], { cwd: repositoryRoot, stdio: 'ignore' });
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Requests for one single-connection latency sample set: enough for a stable median. */
function singleClientMeasure(profile: Profile): Measure {
  return profile.name === 'smoke' ? { requests: 10 } : { requests: profile.name === 'quick' ? 30 : 60 };
}

/** Seconds each part of the run took, in run order: where a run's time goes (the quick run's budget). */
class PartClock {
  readonly parts: Array<{ name: string; seconds: number }> = [];
  #since = performance.now();

  /** Ends the part that ran since the last call (or the start) under `name`. */
  end(name: string): void {
    const now = performance.now();
    this.parts.push({ name, seconds: (now - this.#since) / 1000 });
    this.#since = now;
  }
}

export async function runBenchmark(options: RunOptions): Promise<string> {
  const { profile, log } = options;
  const notes: string[] = [];
  const clock = new PartClock();
  const databaseName = options.databaseName ?? `bench_${profile.name}`;
  const url = databaseUrl(options.postgresServerUrl, databaseName);
  const keyDirectory = await mkdtemp(join(tmpdir(), 'invoice-bench-'));
  const devKeyFile = join(keyDirectory, 'dev-key.json');
  const running: RunningServer[] = [];
  const share = profile.shareProcesses ? new ServerShare() : undefined;
  const stopRunning = async (server: RunningServer): Promise<void> => {
    running.splice(running.indexOf(server), 1);
    await server.stop();
  };
  // Full and quick keep their PGlite directory (git-ignored .data/) for reruns; smoke uses a temporary one.
  const pgliteDirectory = options.dropDatabaseAfter ? join(keyDirectory, 'pglite') : join(repositoryRoot, '.data', `bench-pglite-${profile.name}`);
  let deepPagePlans: { naive: number; deferredJoin: number } | undefined;
  try {
    log(`generate: timing node scripts/generate.mjs --force`);
    const generateSeconds = timeGenerate();
    clock.end('timing pnpm generate');

    await createDatabaseIfMissing(options.postgresServerUrl, databaseName);
    const database = await openDatabase({ url });
    try {
      const prepared = await prepareDataset(database, profile.postgres, log);
      if (prepared.reused) log(`reusing the loaded data set in ${databaseName}`);
    } finally {
      await database.close();
    }
    clock.end('data set (loaded, or reused and vacuumed)');

    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 6 * 3600 });
    log('starting the service and the bare handler');
    const service = await startService({ databaseUrl: url, devKeyFile, share });
    running.push(service);
    const bare = await startBare({ databaseUrl: url, poolSize: profile.connections, share });
    running.push(bare);

    const invoiceId = await benchInvoiceId(url);
    const scenarios = searchScenarios(profile);
    const searches = await benchSearches([...scenarios, getInvoiceScenario(invoiceId)], {
      service,
      bare,
      databaseUrl: url,
      token,
      connections: profile.connections,
      measure: profile.measure,
      warmUpEach: profile.searchWarmUp,
      alternateHalves: profile.alternateHalves,
      log,
    });
    clock.end('search table: service, raw SQL, bare Node (every scenario)');

    log(
      'single-client checks: broad filters (a first page against its next page by cursor, or against its count(*)), the deep page against the naive OFFSET plan',
    );
    const single = singleClientMeasure(profile);
    const rawRuns = 'requests' in single ? single.requests : 30;
    const latencies: LatencyComparison[] = [];
    for (const scenario of scenarios.filter((candidate) => candidate.broad)) {
      if (await totalIsKept(scenario.body)) {
        latencies.push(...(await firstPageChecks({ serviceUrl: service.url, token, databaseUrl: url, scenario, measure: single, rawRuns })));
        continue;
      }
      const serviceFigures = await searchOnce(service.url, token, scenario.body, 1, single);
      const { count } = await serviceSearchStatements(benchAccountId, scenario.body);
      latencies.push({
        name: `broad filter '${scenario.name}'`,
        serviceP50: serviceFigures.p50,
        reference: 'its raw count(*)',
        referenceP50: await medianLatency(url, count, rawRuns),
        maxRatio: 1.2,
      });
    }
    const deep = await searchOnce(service.url, token, { offset: profile.deepOffset }, 1, single);
    latencies.push({
      name: `deep page (offset ${profile.deepOffset.toLocaleString('en-US')})`,
      serviceP50: deep.p50,
      reference: 'the naive OFFSET plan',
      referenceP50: await medianLatency(url, naiveDeepPage(benchAccountId, profile.deepOffset), 'requests' in single ? Math.min(single.requests, 15) : 15),
      maxRatio: 0.25,
    });
    deepPagePlans = {
      naive: latencies[latencies.length - 1]!.referenceP50,
      deferredJoin: await medianLatency(
        url,
        deferredJoinDeepPage(benchAccountId, profile.deepOffset),
        'requests' in single ? Math.min(single.requests, 15) : 15,
      ),
    };

    latencies.push(
      ...(await cursorDeepPages({
        serviceUrl: service.url,
        token,
        databaseUrl: url,
        position: profile.deepOffset,
        measure: single,
        naiveP50: deepPagePlans.naive,
      })),
    );
    clock.end('single-client checks (first pages, deep pages)');
    // The smoke run only proves that the worst-case searches run and print; its timings mean nothing.
    const worstCaseRequests = profile.name === 'smoke' ? 1 : 10;
    notes.push(...(await worstCaseLines('PostgreSQL', service.url, token, worstCaseRequests)));
    clock.end('worst cases (PostgreSQL)');

    const sections: ReportSection[] = [];
    for (const section of extraSections) {
      const made = [await section({ profile, databaseUrl: url, service, token, devKeyFile, share, log })].flat();
      sections.push(...made);
      clock.end(made.map((each) => each.title).join('; '));
    }

    log('writes: issue and create');
    const draftsNeeded = 'seconds' in profile.measure ? profile.measure.seconds * 2_000 + 1_000 : profile.measure.requests + profile.connections;
    const drafts = await createDrafts(url, draftsNeeded);
    const issue = await withCpu(service, () => benchIssue(service.url, token, drafts, profile.connections, profile.measure));
    const createInvoice = await withCpu(service, () => benchCreateInvoice(service.url, token, drafts.contactId, profile.connections, profile.measure));
    const peakRssMiB = await service.peakRssMiB();
    clock.end('writes: issue and create');
    // The A/B below starts its own processes: this one would only take CPU from them. A shared
    // service (smoke) stays: it is the A/B's 'validation on' side, started exactly like it.
    if (share === undefined) await stopRunning(service);
    await stopRunning(bare);

    const validationScenario = scenarios.find((candidate) => candidate.name === 'client_id =') ?? scenarios[0]!;
    log(`validation on vs off, ${profile.abRounds} interleaved rounds (search '${validationScenario.name}')`);
    // interleavedAb stops both sides' processes, also when a round fails.
    const serviceWith = (env: Record<string, string>) => () => startService({ databaseUrl: url, devKeyFile, env, share });
    const validation: ValidationFigures = {
      scenario: `search '${validationScenario.name}'`,
      switched: 'request and response validation (REQUEST_VALIDATION=off, RESPONSE_VALIDATION=off)',
      ab: await interleavedAb({
        a: { name: 'validation on', start: serviceWith({}) },
        b: { name: 'validation off', start: serviceWith({ REQUEST_VALIDATION: 'off', RESPONSE_VALIDATION: 'off' }) },
        rounds: profile.abRounds,
        processes: profile.abProcesses,
        measure: (serviceUrl) => searchOnce(serviceUrl, token, validationScenario.body, profile.connections, profile.measure),
        // JIT, pool and plans warmed alike on both sides, by the same fixed number of requests.
        warmUp: (serviceUrl) => searchOnce(serviceUrl, token, validationScenario.body, profile.connections, { requests: profile.abWarmUpRequests }),
        log,
      }),
    };
    if (running.includes(service)) await stopRunning(service);
    clock.end('validation on vs off');
    if (share !== undefined)
      notes.push(
        "Processes were shared between sections (server-share.ts): a side started exactly like a process still running was measured on that process (the search table's service and bare handler), after the requests of the sections before.",
      );
    notes.push(
      'REQUEST_VALIDATION=off exists for this measurement only: the service refuses it with NODE_ENV=production, and a service without request validation hands unchecked input to its handlers.',
    );

    log(`PGlite: ${profile.pglite.invoices.toLocaleString('en-US')} invoices`);
    const pglite = await benchPglite(profile, pgliteDirectory, devKeyFile, token, log, async (pgliteUrl, pgliteService) => {
      notes.push(...(await worstCaseLines('PGlite', pgliteUrl, token, worstCaseRequests)));
      sections.push(await pgliteExportSection(pgliteService, token, exportRounds({ profile }), log));
    });
    clock.end('PGlite');

    const results: RunResults = {
      profile,
      machine: await machineFacts(url),
      invoices: profile.postgres.invoices,
      connections: profile.connections,
      searches,
      latencies,
      issue,
      createInvoice,
      validation,
      sections,
      generateSeconds,
      peakRssMiB,
      pglite,
      pgliteInvoices: profile.pglite.invoices,
      deepPagePlans,
      notes,
      parts: clock.parts,
    };
    return renderReport(results);
  } finally {
    await Promise.all(running.map((server) => server.stop()));
    await rm(keyDirectory, { recursive: true, force: true });
    if (options.dropDatabaseAfter) await dropDatabase(options.postgresServerUrl, databaseName);
  }
}

export type { Figures };
