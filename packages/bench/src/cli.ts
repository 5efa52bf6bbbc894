// `pnpm bench` (full: a million invoices, the RESULTS.md run), `pnpm bench -- --quick` (100k, short
// runs, under three minutes), `--smoke` (a few thousand rows, what the test suite runs).
// `--output FILE` also writes the report to FILE. BENCH_POSTGRES_URL names the PostgreSQL server.
import { writeFile } from 'node:fs/promises';
import { profiles, type ProfileName } from './profiles.js';
import { runBenchmark } from './run.js';

interface CliOptions {
  profile: ProfileName;
  output: string | undefined;
  dropDatabaseAfter: boolean;
  databaseName: string | undefined;
}

function parseArguments(argv: readonly string[]): CliOptions {
  const options: CliOptions = { profile: 'full', output: undefined, dropDatabaseAfter: false, databaseName: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--')
      continue; // `pnpm bench -- --quick` may pass the separator through
    else if (argument === '--quick') options.profile = 'quick';
    else if (argument === '--smoke') options.profile = 'smoke';
    else if (argument === '--full') options.profile = 'full';
    else if (argument === '--drop') options.dropDatabaseAfter = true;
    else if (argument === '--output') options.output = argv[++index];
    else if (argument === '--database') options.databaseName = argv[++index];
    else throw new Error(`Unknown argument ${argument}; use --quick, --smoke, --full, --output FILE, --database NAME, --drop`);
  }
  return options;
}

// The client's validateResponses cost stands alone (no database): `pnpm bench -- --client-validation`.
if (process.argv.includes('--client-validation')) {
  process.stdout.write(`${await (await import('./client-validation.js')).clientValidationReport()}\n`);
  process.exit(0);
}
const options = parseArguments(process.argv.slice(2));
const started = performance.now();
const report = await runBenchmark({
  profile: profiles[options.profile],
  postgresServerUrl: process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  dropDatabaseAfter: options.dropDatabaseAfter,
  ...(options.databaseName === undefined ? {} : { databaseName: options.databaseName }),
  log: (line) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`),
});
const footer = `\nTotal run time: ${((performance.now() - started) / 1000).toFixed(0)} s.\n`;
process.stdout.write(`${report}\n${footer}`);
if (options.output !== undefined) await writeFile(options.output, `${report}\n${footer}`);
