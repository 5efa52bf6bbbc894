// How long the compiled service takes from process start to a healthy /healthz, on an existing
// database: the bench's PostgreSQL database (migrated and loaded) and a PGlite data directory that
// a first, unmeasured start created, migrated and seeded. Each engine is started several times in a
// row: the first start of the run, then the median of the ones after it, whose files the operating
// system has cached (the page cache is shared with everything else on the machine and not dropped
// here). Besides the wall time, the service's own CPU time until it was healthy: on a busy machine the
// wall time measures the machine, the CPU time what the start costs. And the checks `pnpm start`
// makes before it runs node (generated code and build up to date).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './cpu-time.js';
import { closeIdleConnections, send } from './http-request.js';
import type { ReportSection, SectionContext } from './sections.js';
import { freePort, raisedRateLimits, serviceEntry } from './service.js';
import { markdownTable, type Cell } from './table.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The start-up target: healthy within this long of the process start, from an existing data directory, at idle. */
const targetMs = 3_000;
const pollIntervalMs = 20;
const giveUpMs = 180_000;

interface StartFigure {
  /** Process start to the first 200 from /healthz. */
  wallMs: number;
  /** The service's CPU (all threads) until then. */
  cpuMs: number;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await send(new URL(url), { method: 'GET', timeoutMs: 10_000 })).status === 200;
  } catch {
    return false;
  }
}

/** Starts the compiled service, waits for /healthz to answer 200, stops it; the time and CPU until healthy. */
async function timeOneStart(env: Record<string, string>, devKeyFile: string): Promise<StartFigure> {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', serviceEntry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DEV_KEY_FILE: devKeyFile, REDIS_URL: '', LOG_LEVEL: 'warn', ...raisedRateLimits, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  try {
    for (;;) {
      if (await healthy(`http://127.0.0.1:${port}/healthz`)) break;
      if (exitCode !== undefined) throw new Error(`the service exited with ${exitCode} before it was healthy:\n${stderr}`);
      if (performance.now() - startedAt > giveUpMs) throw new Error(`the service was not healthy within ${giveUpMs} ms:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    }
    const wallMs = performance.now() - startedAt;
    return { wallMs, cpuMs: await processCpuMs(child.pid) };
  } finally {
    closeIdleConnections(`http://127.0.0.1:${port}`);
    child.kill('SIGTERM');
    await exited;
  }
}

/** The checks `pnpm start` runs before node: the generator's and the build's "up to date". */
function timeStartChecks(): number {
  const startedAt = performance.now();
  for (const script of ['scripts/generate.mjs', 'scripts/build.mjs']) execFileSync(process.execPath, [script], { cwd: repositoryRoot, stdio: 'ignore' });
  return performance.now() - startedAt;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

async function startsOf(
  engine: string,
  starts: number,
  env: Record<string, string>,
  context: SectionContext,
): Promise<{ engine: string; figures: StartFigure[] }> {
  const figures: StartFigure[] = [];
  for (let start = 0; start < starts; start += 1) {
    context.log(`start-up: ${engine}, start ${start + 1} of ${starts}`);
    figures.push(await timeOneStart(env, context.devKeyFile));
  }
  return { engine, figures };
}

export async function startupSection(context: SectionContext): Promise<ReportSection> {
  // The smoke run proves that the section runs and prints: one start on PostgreSQL (each costs the
  // seconds of CPU the section measures), no PGlite directory to create.
  const smoke = context.profile.name === 'smoke';
  const starts = 1 + context.profile.laterStarts;
  const pgliteDir = await mkdtemp(join(tmpdir(), 'bench-startup-pglite-'));
  try {
    const engines = [];
    if (!smoke) {
      const pgliteEnv = { DATABASE_URL: '', PGLITE_DATA_DIR: pgliteDir };
      context.log('start-up: creating, migrating and seeding a PGlite data directory (not measured)');
      await timeOneStart(pgliteEnv, context.devKeyFile);
      engines.push(await startsOf('PGlite, existing data directory', starts, pgliteEnv, context));
    }
    engines.push(await startsOf('PostgreSQL, the bench database', starts, { DATABASE_URL: context.databaseUrl }, context));
    const checksMs = timeStartChecks();
    const rows: Cell[][] = [];
    for (const { engine, figures } of engines) {
      const [first, ...later] = figures;
      if (first === undefined) continue;
      rows.push([engine, 'first start of the run', Math.round(first.wallMs), Math.round(first.cpuMs)]);
      if (later.length === 0) continue;
      rows.push([
        engine,
        `median of the next ${later.length}`,
        Math.round(median(later.map((figure) => figure.wallMs))),
        Math.round(median(later.map((figure) => figure.cpuMs))),
      ]);
    }
    rows.push(['`pnpm start` checks before node', 'generated code and build up to date', Math.round(checksMs), 'n/a']);
    // The starts after the first, whose files are cached; a run of one start (smoke) has only that one.
    const warmStarts = (figures: readonly StartFigure[]): readonly StartFigure[] => (figures.length > 1 ? figures.slice(1) : figures);
    const worstWarmMs = Math.max(...engines.map(({ figures }) => median(warmStarts(figures).map((figure) => figure.wallMs))));
    const warmMeasured = starts > 1 ? 'median of the later starts' : 'its only start';
    const body = [
      'Process start of the compiled service (`node --enable-source-maps packages/server/dist/main.js`) to the first 200 from `/healthz`, on an existing database. CPU: the service process, all threads, until healthy; it stays comparable on a busy machine where the wall time does not.',
      '',
      markdownTable(['Engine', 'Start', 'to healthy (ms)', 'CPU until healthy (ms)'], rows),
    ].join('\n');
    return {
      title: 'Start-up time',
      body,
      targets: [
        {
          target: `healthy within ${targetMs / 1000} s of the process start, existing data, at idle`,
          measured: `${Math.round(worstWarmMs)} ms (slower engine, ${warmMeasured})`,
          met: worstWarmMs <= targetMs,
        },
      ],
    };
  } finally {
    await rm(pgliteDir, { recursive: true, force: true });
  }
}
