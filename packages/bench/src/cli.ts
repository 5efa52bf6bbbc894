// `pnpm bench` (full: a million invoices, the RESULTS.md run), `pnpm bench -- --quick` (100k, short
// runs, shorter than the full run), `--smoke` (a few thousand rows, what the test suite runs).
// `--output FILE` also writes the report to FILE. BENCH_POSTGRES_URL names the PostgreSQL server.
// `--profile [SCENARIO]` profiles the service, then express alone, under one scenario instead (profile-run.ts; default
// 'client_id =', on the quick data set unless --full; `--seconds N`, default 15). `--compare DIR`
// runs this checkout's service against DIR's in interleaved rounds (compare-run.ts); with it, `--seconds N`
// sets each round's length, `--rounds N` the rounds per side and `--warm-up N` each side's warm-up requests;
// `--searches 'NAME,...'` picks the searches and `--baseline-database NAME` gives the baseline its own
// copy of the data set (compare-run.ts). `--export` runs the CSV export's sections alone (export-run.ts;
// the quick data set unless --full). `--duties` measures the service's duties rung by rung on express
// alone (duties-run.ts; the quick data set unless --full; `--rounds N`, default 3; `--seconds N`, default 5).
// `--gc [SCENARIO]` measures what the garbage collector costs per request on express alone, on every
// duty in front of it and on the service (gc-run.ts; 'client_id =' by default; `--rounds N`, default 2).
import { writeFile } from 'node:fs/promises';
import { runCompare } from './compare-run.js';
import { runDuties } from './duties-run.js';
import { runExportOnly } from './export-run.js';
import { runGc } from './gc-run.js';
import { defaultProfileDirectory, runProfile } from './profile-run.js';
import { profiles, type ProfileName } from './profiles.js';
import { runBenchmark } from './run.js';

interface CliOptions {
  profile: ProfileName | undefined;
  output: string | undefined;
  dropDatabaseAfter: boolean;
  databaseName: string | undefined;
  /** Set: profile this scenario instead of running the benchmark. */
  cpuProfile: string | undefined;
  seconds: number;
  /** --seconds was given: with --compare, each round lasts that long instead of the profile's measure. */
  secondsGiven: boolean;
  /** With --compare: rounds per side instead of the profile's (more rounds narrow the ranges on a busy machine). */
  rounds: number | undefined;
  /** Set: compare this checkout's service with the one in this directory instead. */
  compare: string | undefined;
  /** With --compare: the baseline's own copy of the data set. */
  baselineDatabase: string | undefined;
  /** With --compare: the search scenarios to compare, by name or prefix. */
  searches: string[] | undefined;
  /** With --compare: warm-up requests per side instead of the profile's. */
  warmUpRequests: number | undefined;
  /** Run the export's sections alone. */
  exportOnly: boolean;
  /** Measure the service's duties rung by rung on express alone. */
  duties: boolean;
  /** Set: measure the garbage collector's cost per request of this scenario instead. */
  gc: string | undefined;
}

function parseArguments(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    profile: undefined,
    output: undefined,
    dropDatabaseAfter: false,
    databaseName: undefined,
    cpuProfile: undefined,
    seconds: 15,
    secondsGiven: false,
    rounds: undefined,
    compare: undefined,
    baselineDatabase: undefined,
    searches: undefined,
    warmUpRequests: undefined,
    exportOnly: false,
    duties: false,
    gc: undefined,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--')
      continue; // `pnpm bench -- --quick` may pass the separator through
    else if (argument === '--quick') options.profile = 'quick';
    else if (argument === '--smoke') options.profile = 'smoke';
    else if (argument === '--full') options.profile = 'full';
    else if (argument === '--drop') options.dropDatabaseAfter = true;
    else if (argument === '--export') options.exportOnly = true;
    else if (argument === '--duties') options.duties = true;
    else if (argument === '--output') options.output = argv[++index];
    else if (argument === '--database') options.databaseName = argv[++index];
    else if (argument === '--seconds') {
      options.seconds = Number(argv[++index]);
      options.secondsGiven = true;
    } else if (argument === '--rounds') options.rounds = Number(argv[++index]);
    else if (argument === '--compare') options.compare = argv[++index];
    else if (argument === '--baseline-database') options.baselineDatabase = argv[++index];
    else if (argument === '--searches')
      options.searches = (argv[++index] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
    else if (argument === '--warm-up') options.warmUpRequests = Number(argv[++index]);
    else if (argument === '--profile') {
      const next = argv[index + 1];
      options.cpuProfile = next !== undefined && !next.startsWith('--') ? argv[++index] : 'client_id =';
    } else if (argument === '--gc') {
      const next = argv[index + 1];
      options.gc = next !== undefined && !next.startsWith('--') ? argv[++index] : 'client_id =';
    } else
      throw new Error(
        `Unknown argument ${argument}; use --quick, --smoke, --full, --output FILE, --database NAME, --drop, --profile [SCENARIO], --seconds N, --compare DIR [--rounds N] [--searches 'NAME,...'] [--warm-up N] [--baseline-database NAME], --export, --duties [--rounds N] [--seconds N], --gc [SCENARIO] [--rounds N]`,
      );
  }
  if (!(options.seconds > 0)) throw new Error('--seconds takes a positive number');
  if (options.rounds !== undefined && !(Number.isInteger(options.rounds) && options.rounds >= 1))
    throw new Error('--rounds takes a whole number of at least 1');
  if (options.warmUpRequests !== undefined && !(Number.isInteger(options.warmUpRequests) && options.warmUpRequests >= 1))
    throw new Error('--warm-up takes a whole number of at least 1');
  if (options.searches !== undefined && options.searches.length === 0) throw new Error("--searches takes scenario names, e.g. 'no criteria,order_by'");
  const compareOnly = [
    ['--searches', options.searches],
    ['--warm-up', options.warmUpRequests],
    ['--baseline-database', options.baselineDatabase],
    ['--rounds', options.rounds],
  ] as const;
  for (const [name, value] of compareOnly)
    if (value !== undefined && options.compare === undefined && !(name === '--rounds' && (options.duties || options.gc !== undefined)))
      throw new Error(`${name} applies to --compare DIR only`);
  return options;
}

// The client's validateResponses cost stands alone (no database): `pnpm bench -- --client-validation`.
if (process.argv.includes('--client-validation')) {
  process.stdout.write(`${await (await import('./client-validation.js')).clientValidationReport()}\n`);
  process.exit(0);
}
const options = parseArguments(process.argv.slice(2));
const started = performance.now();
const postgresServerUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (line: string): void => {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
};
let report: string;
if (options.compare !== undefined) {
  const base = profiles[options.profile ?? 'quick'];
  const profile = {
    ...base,
    measure: options.secondsGiven ? { seconds: options.seconds } : base.compare.measure,
    abProcesses: base.compare.processes,
    ...(options.rounds === undefined ? {} : { abRounds: options.rounds }),
    ...(options.warmUpRequests === undefined ? {} : { abWarmUpRequests: options.warmUpRequests }),
  };
  report = await runCompare({
    profile,
    postgresServerUrl,
    databaseName: options.databaseName ?? `bench_${profile.name}`,
    baselineDirectory: options.compare,
    ...(options.baselineDatabase === undefined ? {} : { baselineDatabaseName: options.baselineDatabase }),
    ...(options.searches === undefined ? {} : { searches: options.searches }),
    log,
  });
} else if (options.duties) {
  const profile = profiles[options.profile ?? 'quick'];
  report = await runDuties({
    profile,
    postgresServerUrl,
    databaseName: options.databaseName ?? `bench_${profile.name}`,
    rounds: options.rounds ?? 3,
    measure: options.secondsGiven ? { seconds: options.seconds } : { seconds: 5 },
    log,
  });
} else if (options.gc !== undefined) {
  const profile = profiles[options.profile ?? 'quick'];
  report = await runGc({
    profile,
    postgresServerUrl,
    databaseName: options.databaseName ?? `bench_${profile.name}`,
    scenario: options.gc,
    rounds: options.rounds ?? 2,
    requests: 6000,
    log,
  });
} else if (options.exportOnly) {
  const profile = profiles[options.profile ?? 'quick'];
  report = await runExportOnly({ profile, postgresServerUrl, databaseName: options.databaseName ?? `bench_${profile.name}`, log });
} else if (options.cpuProfile !== undefined) {
  const profile = profiles[options.profile ?? 'quick'];
  report = await runProfile({
    profile,
    postgresServerUrl,
    databaseName: options.databaseName ?? `bench_${profile.name}`,
    scenario: options.cpuProfile,
    seconds: options.seconds,
    outputDirectory: defaultProfileDirectory,
    log,
  });
} else {
  const profile = profiles[options.profile ?? 'full'];
  report = await runBenchmark({
    profile,
    postgresServerUrl,
    dropDatabaseAfter: options.dropDatabaseAfter,
    ...(options.databaseName === undefined ? {} : { databaseName: options.databaseName }),
    log,
  });
}
const footer = `\nTotal run time: ${((performance.now() - started) / 1000).toFixed(0)} s.\n`;
process.stdout.write(`${report}\n${footer}`);
if (options.output !== undefined) await writeFile(options.output, `${report}\n${footer}`);
