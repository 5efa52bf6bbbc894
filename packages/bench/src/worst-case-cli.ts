// `pnpm --filter @invoice-api/bench worst-case [-- --compare DIR] [--rounds N]`: the worst-case searches
// (worst-case.ts) through the service on PostgreSQL and on PGlite, each on its demo seed, printed as
// median and range. With `--compare DIR` (another checkout of this repository, installed), that
// checkout's service runs beside this one on each engine and the rounds alternate between them, so a
// before/after comparison sees the same machine state on both sides. `--database NAME` runs this
// checkout on an existing data set instead (a bench database: `bench_full` holds a million invoices),
// PostgreSQL only, and `--baseline-database NAME` the compared checkout on its own copy of it (made
// by `pnpm bench -- --compare DIR --full --baseline-database NAME`, in the compared checkout's schema).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './child-process.js';
import { createDatabaseIfMissing, databaseUrl, dropDatabase } from './dataset/postgres-admin.js';
import { mintDevToken } from './server-modules.js';
import { raisedRateLimits } from './service.js';
import { bodyKilobytes, describeSamples, interleavedSamples, median, worstCaseScenarios, type Target } from './worst-case.js';

const thisRoot = fileURLToPath(new URL('../../../', import.meta.url));
const postgresServerUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const targetMs = 100;

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const compareRoot = option('--compare');
const rounds = Number(option('--rounds') ?? 3);
const perRound = Number(option('--per-round') ?? 5);
const existingDatabase = option('--database');
const baselineDatabase = option('--baseline-database');
if (baselineDatabase !== undefined && (compareRoot === undefined || existingDatabase === undefined))
  throw new Error('--baseline-database applies to --compare DIR with --database NAME');
// Each service migrates its database at start: two checkouts on one data set would fight over its schema.
if (compareRoot !== undefined && existingDatabase !== undefined && baselineDatabase === undefined)
  throw new Error("--compare DIR with --database NAME needs --baseline-database NAME: the compared checkout's own copy of the data set");
const checkouts = [
  { side: 'this', root: thisRoot, database: existingDatabase },
  ...(compareRoot === undefined ? [] : [{ side: 'compared', root: resolve(compareRoot), database: baselineDatabase }]),
];
// An existing data set is a PostgreSQL database; the demo seed runs on both engines.
const engines = existingDatabase === undefined ? (['postgres', 'pglite'] as const) : (['postgres'] as const);

const keyDirectory = await mkdtemp(join(tmpdir(), 'bench-worst-'));
const devKeyFile = join(keyDirectory, 'dev-key.json');
const running: RunningServer[] = [];
const databases: string[] = [];
try {
  const token = await mintDevToken({ keyFile: devKeyFile, accountId: 1, clientId: 'bench', ttlSeconds: 3600 });
  const lines: string[] = [];
  for (const engine of engines) {
    const targets: Target[] = [];
    for (const [index, checkout] of checkouts.entries()) {
      let url = 'memory:';
      if (checkout.database !== undefined) url = databaseUrl(postgresServerUrl, checkout.database);
      else if (engine === 'postgres') {
        const name = `bench_worst_${process.pid}_${index}`;
        await createDatabaseIfMissing(postgresServerUrl, name);
        databases.push(name);
        url = databaseUrl(postgresServerUrl, name);
      }
      const server = await startServer({
        entry: join(checkout.root, 'packages/server/src/main.ts'),
        cwd: checkout.root,
        env: { HOST: '127.0.0.1', PORT: '0', DATABASE_URL: url, DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits },
      });
      running.push(server);
      targets.push({ name: checkout.side, url: server.url });
    }
    for (const scenario of worstCaseScenarios()) {
      const samples = await interleavedSamples(targets, token, scenario.body, rounds, perRound);
      for (const target of targets) {
        const own = samples.get(target.name)!;
        const verdict = median(own.latencies) < targetMs && Math.max(...own.latencies) < targetMs ? 'target met' : `target < ${targetMs} ms missed`;
        lines.push(`| ${engine} | ${scenario.name} (${bodyKilobytes(scenario.body).toFixed(0)} KB) | ${target.name} | ${describeSamples(own)} | ${verdict} |`);
      }
    }
    await Promise.all(running.splice(0).map((server) => server.stop()));
  }
  process.stdout.write(
    [
      `Worst-case searches${existingDatabase === undefined ? '' : ` on ${existingDatabase}${baselineDatabase === undefined ? '' : ` (the compared checkout on ${baselineDatabase})`}`}, ${rounds} interleaved rounds of ${perRound} requests per side, one at a time: median (range)`,
      '',
      '| engine | search | service | latency | verdict |',
      '|---|---|---|---|---|',
      ...lines,
      '',
    ].join('\n'),
  );
} finally {
  await Promise.all(running.map((server) => server.stop()));
  for (const name of databases) await dropDatabase(postgresServerUrl, name);
  await rm(keyDirectory, { recursive: true, force: true });
}
