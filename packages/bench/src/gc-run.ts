// `pnpm bench -- --gc [SCENARIO]`: what the garbage collector costs per request of one scenario
// (getInvoice or a search; 'client_id =' by default) on express alone, on the same handler behind
// every one of the service's duties (bare-duties.ts' top rung), and on the service. Each side is
// started with gc-observer.mjs preloaded, warmed, then watched over a fixed number of requests:
// what it allocated, its young and full collections and their pauses, what its young collections
// promoted, and where the objects that outlived a young collection were allocated. Sides alternate
// over the rounds, the order rotated, as everywhere in the bench; the JS heap's allocation per
// request is known to the byte, the pauses are CPU time and move with the machine.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBare } from './bare.js';
import { benchInvoiceId } from './bench-invoice.js';
import type { RunningServer } from './child-process.js';
import { preparedPostgresDatabase } from './dataset/prepare.js';
import { spreadText } from './format.js';
import { allocationSites, summariseGc, type GcFigures, type GcWindow } from './gc-stats.js';
import { spread } from './ab.js';
import type { Profile } from './profiles.js';
import { benchAccountId, getInvoiceScenario, searchScenarios } from './scenarios.js';
import { scenarioOnce } from './search-bench.js';
import { mintDevToken } from './server-modules.js';
import { raisedRateLimits, startService } from './service.js';
import { markdownTable, type Cell } from './table.js';

export const gcObserver = fileURLToPath(new URL('./gc-observer.mjs', import.meta.url));

export interface GcRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  /** A search scenario's name or `getInvoice`. */
  scenario: string;
  rounds: number;
  /** Requests watched per side and round. */
  requests: number;
  log: (line: string) => void;
}

interface GcSide {
  name: string;
  start(env: Record<string, string>): Promise<RunningServer>;
}

interface Watched {
  figures: GcFigures;
  window: GcWindow;
}

async function waitForFile(path: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  // gc-observer.mjs writes each file whole under another name, then renames it.
  while (!existsSync(path)) {
    if (performance.now() > deadline) throw new Error(`gc-observer.mjs wrote no ${path} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens the observer's window on `server`, runs `load`, closes the window and reads it. */
export async function watchCollections<Load extends { requests: number }>(
  server: RunningServer,
  output: string,
  load: () => Promise<Load>,
): Promise<{ window: GcWindow; measured: Load }> {
  await rm(output, { force: true });
  await rm(`${output}.opened`, { force: true });
  server.process.kill('SIGUSR2');
  await waitForFile(`${output}.opened`, 10_000);
  const measured = await load();
  server.process.kill('SIGUSR2');
  await waitForFile(output, 30_000);
  const written = JSON.parse(await readFile(output, 'utf8')) as GcWindow | { error: string };
  if ('error' in written) throw new Error(`gc-observer.mjs failed in the server: ${written.error}`);
  return { window: written, measured };
}

const kib = (value: number): string => value.toFixed(1);
const micro = (value: number): string => value.toFixed(1);

/** The table's figures, each with how it is written. */
const columns: ReadonlyArray<readonly [(figures: GcFigures) => number, (value: number) => string]> = [
  [(figures) => figures.allocatedKiBPerRequest, kib],
  [(figures) => figures.youngPauseMicrosecondsPerRequest, micro],
  [(figures) => figures.fullPauseMicrosecondsPerRequest, micro],
  [(figures) => figures.promotedKiBPerRequest, kib],
  [(figures) => figures.medianYoungSurvivorsKiB, (value) => value.toFixed(0)],
];

function sideRow(name: string, rounds: readonly GcFigures[]): Cell[] {
  return [
    name,
    ...columns.map(([figure, format]) => spreadText(spread(rounds.map(figure)), format)),
    rounds.map((figures) => `${figures.youngCollections}/${figures.fullCollections}`).join(', '),
  ];
}

function sitesTable(watched: readonly Watched[]): string {
  // The last round's profile: each round's is a sample of the same work.
  const last = watched.at(-1);
  if (last === undefined) return '';
  const rows = allocationSites(last.window.survivors.head, last.figures.requests, 12).map((site): Cell[] => [site.site, site.kiBPerRequest.toFixed(2)]);
  return markdownTable(['allocated by (self)', 'KiB per request'], rows);
}

export async function runGc(options: GcRunOptions): Promise<string> {
  const { profile, log } = options;
  const url = await preparedPostgresDatabase(options.postgresServerUrl, options.databaseName, profile.postgres, log);
  const directory = await mkdtemp(join(tmpdir(), 'invoice-bench-gc-'));
  try {
    const devKeyFile = join(directory, 'dev-key.json');
    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 3600 });
    const scenarios = [...searchScenarios(profile), getInvoiceScenario(await benchInvoiceId(url))];
    const scenario = scenarios.find((candidate) => candidate.name === options.scenario);
    if (scenario === undefined)
      throw new Error(`Unknown scenario '${options.scenario}'; one of: ${scenarios.map((candidate) => `'${candidate.name}'`).join(', ')}`);
    const nodeArgs = ['--import', gcObserver];
    const dutySettings = { DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits };
    const sides: GcSide[] = [
      {
        name: 'express alone (same handler)',
        start: (env) => startBare({ databaseUrl: url, poolSize: profile.connections, framework: 'express', env, nodeArgs }),
      },
      {
        name: "every duty on express alone (the service's modules)",
        start: (env) =>
          startBare({
            databaseUrl: url,
            poolSize: profile.connections,
            framework: 'express',
            duties: 'answers checked',
            env: { ...dutySettings, ...env },
            nodeArgs,
          }),
      },
      { name: 'the service', start: (env) => startService({ databaseUrl: url, devKeyFile, metrics: true, env, nodeArgs }) },
    ];
    const watched: Watched[][] = sides.map(() => []);
    for (let round = 0; round < options.rounds; round += 1) {
      for (let step = 0; step < sides.length; step += 1) {
        const index = (step + round) % sides.length;
        const side = sides[index]!;
        const output = join(directory, `gc-${round}-${index}.json`);
        log(`  round ${round + 1}/${options.rounds}: ${side.name}`);
        const server = await side.start({ GC_OBSERVER_OUTPUT: output });
        try {
          await scenarioOnce(server.url, token, scenario, profile.connections, { requests: profile.abWarmUpRequests });
          const { window, measured } = await watchCollections(server, output, () =>
            scenarioOnce(server.url, token, scenario, profile.connections, { requests: options.requests }),
          );
          // A failed request is cheaper than an answered one: figures over failures would mislead.
          if (measured.errors > 0)
            throw new Error(`${side.name}: ${measured.errors} of ${measured.requests} requests failed, the first: ${measured.firstFailure ?? 'not described'}`);
          watched[index]!.push({ window, figures: summariseGc(window, measured.requests) });
        } finally {
          await server.stop();
        }
      }
    }
    const table = markdownTable(
      [
        'side',
        'allocated KiB/req',
        'young collections: pause µs/req',
        'full collections: pause µs/req',
        'promoted KiB/req',
        'young survivors per collection, KiB',
        'young/full collections per round',
      ],
      sides.map((side, index) =>
        sideRow(
          side.name,
          watched[index]!.map((entry) => entry.figures),
        ),
      ),
    );
    return [
      `## What the garbage collector costs per request: '${scenario.name}' (\`pnpm bench -- --gc\`, ${profile.postgres.invoices.toLocaleString('en-US')} invoices)`,
      '',
      `${options.rounds} rounds per side, the order rotated each round; each side a fresh process with gc-observer.mjs preloaded, warmed by ` +
        `${profile.abWarmUpRequests.toLocaleString('en-US')} requests, then watched over ${options.requests.toLocaleString('en-US')} at ${profile.connections} connections. ` +
        "Median (range) over the rounds. Allocated: the JS heap's growth between collections and at the window's ends (Buffers' memory lies outside). " +
        "Pauses: the collector's time on the main thread (node:v8 GCProfiler), the observer's heap sampler included, alike on every side. " +
        'Promoted: what young collections moved to the old generation, which only a full collection frees. ' +
        'A young collection copies everything still alive, so its cost follows what survives, not what was allocated.',
      '',
      table,
      '',
      ...sides.flatMap((side, index) => [
        `### Objects that outlived a young collection (or were alive at the window's end): ${side.name}`,
        '',
        "Sampled by V8's heap profiler keeping what full collections freed and dropping what young ones did; the last round.",
        '',
        sitesTable(watched[index]!),
        '',
      ]),
    ].join('\n');
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
