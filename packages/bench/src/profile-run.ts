// `pnpm bench -- --profile [scenario]`: the service (packages/server/src/main.ts, as the benchmark
// starts it: validation on, logging at info, rate limits in the path) under one scenario with
// `node --cpu-prof`, on the quick data set unless --full is given. Prints the CPU per request from
// /proc and the profile's top functions and packages, counted over the load only (start-up and the
// warm-up are left out by their timestamps). For a read or a search, express alone (bare-server.ts's
// handler as the only route of an express 5 app) is profiled next under the same load, and each
// package's CPU per request is set beside the service's: the CPU target is a multiple of express
// alone's, and this says which package spends the difference. Then the hand-wired peer
// (peer-server.ts), the same way: where the service spends more or less than what a team would write.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchInvoiceId } from './bench-invoice.js';
import { startBare } from './bare.js';
import { startPeer } from './peer.js';
import type { RunningServer } from './child-process.js';
import {
  monotonicMicroseconds,
  mainThreadProfile,
  packageDifferences,
  renderPackageDifferences,
  renderProfileSummary,
  summariseProfile,
  type ProfileSummary,
} from './cpu-profile.js';
import { preparedPostgresDatabase } from './dataset/prepare.js';
import { withCpu, type Figures, type Measure } from './figures.js';
import type { Profile } from './profiles.js';
import { benchAccountId, getInvoiceScenario, searchScenarios } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import { mintDevToken } from './server-modules.js';
import { raisedRateLimits, startService } from './service.js';
import { benchCreateInvoice, benchIssue, createDrafts } from './write-bench.js';

export interface ProfileRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  /** A search scenario's name, `getInvoice`, `issue` or `create`. */
  scenario: string;
  seconds: number;
  /** Where the .cpuprofile goes (kept: open it in Chrome DevTools or speedscope). */
  outputDirectory: string;
  log: (line: string) => void;
}

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const defaultProfileDirectory = join(repositoryRoot, '.data', 'bench-profiles');

export async function runProfile(options: ProfileRunOptions): Promise<string> {
  const { profile, log } = options;
  const url = await preparedPostgresDatabase(options.postgresServerUrl, options.databaseName, profile.postgres, log);
  const keyDirectory = await mkdtemp(join(tmpdir(), 'invoice-bench-profile-'));
  await mkdir(options.outputDirectory, { recursive: true });
  const profileDirectory = await mkdtemp(join(options.outputDirectory, 'run-'));
  try {
    const devKeyFile = join(keyDirectory, 'dev-key.json');
    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 3600 });
    const dutySettings = { DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits };
    const scenarios = [...searchScenarios(profile), getInvoiceScenario(await benchInvoiceId(url))];
    const load = await loadFor(options.scenario, scenarios, url, token, profile.connections);
    const profiled = (name: string, start: (nodeArgs: readonly string[]) => Promise<RunningServer>) =>
      profileUnderLoad({ name, start, load, seconds: options.seconds, directory: join(profileDirectory, name.replaceAll(' ', '-')), log });
    // With its Prometheus metrics, as the duties' top rung and the hand-wired peer keep theirs.
    const service = await profiled('service', (nodeArgs) => startService({ databaseUrl: url, devKeyFile, metrics: true, nodeArgs }));
    const lines = [
      `# CPU profile of the service: '${options.scenario}', ${profile.postgres.invoices.toLocaleString('en-US')} invoices, ${profile.connections} connections, ${options.seconds} s`,
      '',
      figuresLine(service.figures),
      '',
      renderProfileSummary(service.summary, service.figures.requests),
    ];
    // The writes have no express-alone handler; the reads and searches do (bare-server.ts).
    if (options.scenario !== 'issue' && options.scenario !== 'create') {
      const floor = await profiled('express alone', (nodeArgs) =>
        startBare({ databaseUrl: url, poolSize: profile.connections, framework: 'express', nodeArgs }),
      );
      type Profiled = Awaited<ReturnType<typeof profiled>>;
      /** Another side's profile under the same load, and each package's CPU per request beside the service's. */
      const beside = (other: Profiled, heading: string, reading: string, otherName: string): string[] => [
        '',
        `## ${heading}, under the same load`,
        '',
        figuresLine(other.figures),
        '',
        reading,
        '',
        renderPackageDifferences(packageDifferences(service.summary, service.figures.requests, other.summary, other.figures.requests), otherName),
        '',
        renderProfileSummary(other.summary, other.figures.requests),
      ];
      lines.push(
        ...beside(
          floor,
          'Beside express alone (the same handler as the only route of an express 5 app, no middleware)',
          'Main-thread self time per request by package, largest difference first: where the service spends CPU that express alone does not. ' +
            'The two profiles ran one after the other, not interleaved: their ratio is not the CPU target\'s figure (that is the benchmark\'s section "What express alone costs"), their breakdown is what this shows.',
          'express alone',
        ),
      );
      // The service's duties alone in front of the same handler (bare-duties.ts' top rung): what the
      // service spends beyond it is its per-operation work, and this says in which package.
      const duties = await profiled('every duty on express alone', (nodeArgs) =>
        startBare({ databaseUrl: url, poolSize: profile.connections, framework: 'express', duties: 'answers checked', env: dutySettings, nodeArgs }),
      );
      lines.push(
        ...beside(
          duties,
          "Beside the service's duties on express alone (bare-duties.ts' top rung: the same handler behind the service's own modules for every duty)",
          "Main-thread self time per request by package, largest difference first: where the service's per-operation work goes. Profiled one after the other, not interleaved.",
          'the duties',
        ),
      );
      const peer = await profiled('hand-wired peer', (nodeArgs) => startPeer({ databaseUrl: url, devKeyFile, nodeArgs }));
      lines.push(
        ...beside(
          peer,
          'Beside the hand-wired peer (peer-server.ts: the same duties, each library as its README shows)',
          'Main-thread self time per request by package, largest difference first (negative: the peer spends more). Profiled one after the other, not interleaved.',
          'the peer',
        ),
      );
    }
    return lines.join('\n');
  } finally {
    await rm(keyDirectory, { recursive: true, force: true });
  }
}

type Load = (serviceUrl: string, measure: Measure) => Promise<Figures>;

function figuresLine(figures: Figures): string {
  return (
    `${figures.requests} requests, ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.errors} errors; ` +
    `process CPU (all threads, /proc) ${(figures.cpuMsPerRequest ?? Number.NaN).toFixed(3)} ms per request.`
  );
}

/** Starts a server with `--cpu-prof`, warms it for 2 s, loads it, stops it, and summarises the load's samples only. */
async function profileUnderLoad(options: {
  name: string;
  start: (nodeArgs: readonly string[]) => Promise<RunningServer>;
  load: Load;
  seconds: number;
  directory: string;
  log: (line: string) => void;
}): Promise<{ figures: Figures; summary: ProfileSummary }> {
  await mkdir(options.directory, { recursive: true });
  const server = await options.start(['--cpu-prof', '--cpu-prof-dir', options.directory]);
  let figures: Figures;
  let startUs: number;
  let endUs: number;
  try {
    options.log(`profiling ${options.name}: ${options.seconds} s of load after a 2 s warm-up`);
    await options.load(server.url, { seconds: 2 });
    startUs = monotonicMicroseconds();
    figures = await withCpu(server, () => options.load(server.url, { seconds: options.seconds }));
    endUs = monotonicMicroseconds();
  } finally {
    await server.stop();
  }
  return { figures, summary: await summariseProfile(await mainThreadProfile(options.directory), { startUs, endUs }) };
}

async function loadFor(name: string, scenarios: ReturnType<typeof searchScenarios>, url: string, token: string, connections: number): Promise<Load> {
  if (name === 'issue') {
    // Enough drafts for the warm-up and the load at well above the issue rate.
    const drafts = await createDrafts(url, 20_000);
    return (serviceUrl, measure) => benchIssue(serviceUrl, token, drafts, connections, measure);
  }
  if (name === 'create') {
    const drafts = await createDrafts(url, 1);
    return (serviceUrl, measure) => benchCreateInvoice(serviceUrl, token, drafts.contactId, connections, measure);
  }
  const scenario = scenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) {
    throw new Error(`Unknown scenario '${name}'; one of: ${[...scenarios.map((candidate) => `'${candidate.name}'`), "'issue'", "'create'"].join(', ')}`);
  }
  return (serviceUrl, measure) => scenarioOnce(serviceUrl, token, scenario, connections, measure);
}
