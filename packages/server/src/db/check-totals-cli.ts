// `pnpm db:check-totals [--repair]`: recounts every account's invoices by status and currency, compares
// them with the counts the database keeps for search totals (migration 0007) and prints every
// difference; `--repair` writes the counted numbers back in one transaction. It opens the service's
// database, chosen as the service chooses it (config.ts).
import { parseArgs } from 'node:util';
import { ConfigError, loadDatabaseConfig } from '../config.js';
import { isEntryPoint } from '../runtime/entry-point.js';
import { describeStartupFailure } from '../runtime/startup-failure.js';
import { DataDirectoryInUseError, openDatabase, type Database } from './database.js';
import { compareInvoiceCounts, repairInvoiceCounts, type CountComparison, type CountDifference } from './invoice-counts.js';

export const usage = `Usage: pnpm db:check-totals [--repair]
Recounts every account's invoices by status and currency and compares them with the counts the database
keeps for search totals (table invoice_counts, kept by triggers). Prints each (account, status, currency)
whose kept count differs from its invoices.
  --repair   write the counted numbers back, in one transaction (invoice writes wait for it)
  --help     this text
The database is the service's: DATABASE_URL, or else the PGlite data directory (PGLITE_DATA_DIR, default
.data/pglite), which a running service holds: stop it first.
Exit status: 0 every count is right (or, with --repair, was repaired); 1 a count differs; 2 bad
arguments, or the database cannot be opened or has no kept counts yet.`;

export interface CheckTotalsOutput {
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

function parseOptions(argv: string[]): { repair: boolean; help: boolean } {
  try {
    const { values } = parseArgs({ args: argv, options: { repair: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    return { repair: values.repair === true, help: values.help === true };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function describeDifference(difference: CountDifference): string {
  return `account ${difference.accountId}, status ${difference.status}, currency ${difference.currency}: kept ${difference.kept}, counted ${difference.counted}`;
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

async function hasKeptCounts(database: Database): Promise<boolean> {
  const row = await database.db.selectNoFrom((eb) => eb.fn<string | null>('to_regclass', [eb.val('invoice_counts')]).as('table')).executeTakeFirstOrThrow();
  return row.table !== null;
}

function report(comparison: CountComparison, repaired: boolean, output: CheckTotalsOutput): number {
  const { groups, differences } = comparison;
  for (const difference of differences) output.out(describeDifference(difference));
  const checked = `Checked ${plural(groups, 'kept count', 'kept counts')}`;
  if (differences.length === 0) {
    output.out(`${checked}: every one equals its invoices.`);
    return 0;
  }
  const wrong = plural(differences.length, 'differs from its invoices', 'differ from their invoices');
  if (repaired) {
    output.out(`${checked}: ${wrong}; repaired, in one transaction.`);
    return 0;
  }
  output.out(`${checked}: ${wrong}. pnpm db:check-totals --repair writes the counted numbers back.`);
  return 1;
}

/** Runs the command; returns its exit status. */
export async function checkTotals(argv: string[], env: NodeJS.ProcessEnv, output: CheckTotalsOutput): Promise<number> {
  let options: { repair: boolean; help: boolean };
  let config: ReturnType<typeof loadDatabaseConfig>;
  try {
    options = parseOptions(argv);
    config = loadDatabaseConfig(env);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
    output.err(`${error.message}\n${usage}`);
    return 2;
  }
  if (options.help) {
    output.out(usage);
    return 0;
  }
  // One line that says why, never a stack: PostgreSQL is only reached at the first query.
  const cannot = (error: unknown): number => {
    const known =
      error instanceof DataDirectoryInUseError ? error.message : describeStartupFailure(error, { host: '', port: 0, metrics: undefined, database: config });
    output.err(`Cannot check the totals: ${known ?? (error instanceof Error ? error.message : String(error))}`);
    return 2;
  };
  let database: Database;
  try {
    database = await openDatabase({ url: config.url, dataDir: config.pgliteDataDir, poolSize: 1 });
  } catch (error) {
    return cannot(error);
  }
  try {
    if (!(await hasKeptCounts(database))) {
      output.err('Cannot check the totals: this database keeps no invoice counts yet (migration 0007). Start the service once: it migrates the database.');
      return 2;
    }
    const comparison = options.repair ? await repairInvoiceCounts(database.db) : await compareInvoiceCounts(database.db);
    return report(comparison, options.repair, output);
  } catch (error) {
    return cannot(error);
  } finally {
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  process.exitCode = await checkTotals(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
