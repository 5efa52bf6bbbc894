// `pnpm db:copy --to postgres://…` copies the embedded database into an empty PostgreSQL database (the
// move when one machine is outgrown); `--from postgres://…` copies a PostgreSQL database into an empty
// embedded one. The embedded side is opened under its lock, so the service must be stopped: writes it
// made after the copy would otherwise be lost. See copy-database.ts for how the copy stays all or nothing.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { openDatabase, type Database } from '../db/database.js';
import { DataDirectoryInUseError } from '../db/single-writer-lock.js';
import { isEntryPoint } from '../runtime/entry-point.js';
import { CommandError, embeddedDataDir, parseCommandLine, pathExists, progress, runCommand } from './command-line.js';
import { copyDatabase, type TableCheck } from './copy-database.js';

export const copyUsage = `Usage: pnpm db:copy --to postgres://user@host:5432/db [--data-dir DIR]
       pnpm db:copy --from postgres://user@host:5432/db [--data-dir DIR]
--to copies the embedded (PGlite) database in DIR into an empty PostgreSQL database; --from copies a
PostgreSQL database into an empty embedded one in DIR. The target is migrated first and must hold no
rows; every table is copied, sequences are set past the highest id, and the row counts and a checksum
of every table are compared on both sides and printed. Stop the service on DIR first.
DIR defaults to PGLITE_DATA_DIR, else .data/pglite. A copy that was interrupted is started over by
running the same command again.`;

export async function copy(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv, { to: { type: 'string' }, from: { type: 'string' }, 'data-dir': { type: 'string' } });
  if (positionals.length > 0) throw new CommandError(`unexpected argument ${positionals[0]}; --help shows the usage.`);
  if ((values.to === undefined) === (values.from === undefined)) throw new CommandError('give either --to or --from; --help shows the usage.');
  const direction = values.to === undefined ? 'from' : 'to';
  const url = values.to ?? values.from ?? '';
  const postgresName = describePostgres(url);
  const dataDir = embeddedDataDir(values['data-dir']);
  const embeddedName = `the embedded database in ${dataDir}`;
  const embeddedExisted = await pathExists(join(dataDir, 'PG_VERSION'));
  if (direction === 'to' && !embeddedExisted) throw new CommandError(`there is no embedded database in ${dataDir} (no PG_VERSION file).`);
  const createdDataDir = !(await pathExists(dataDir));

  const postgres = await openDatabase({ url, poolSize: 2 });
  let embedded: Database | undefined;
  let finished = false;
  try {
    if (!(await postgres.ping())) throw new CommandError(`cannot connect to ${postgresName}.`);
    progress(`copy: opening ${embeddedName}`);
    embedded = await openEmbedded(dataDir);
    const [source, target] = direction === 'to' ? [embedded, postgres] : [postgres, embedded];
    const [sourceName, targetName] = direction === 'to' ? [embeddedName, postgresName] : [postgresName, embeddedName];
    const outcome = await copyDatabase(source, target, { sourceName, targetName, progress });
    process.stdout.write(
      `Copied ${sourceName} to ${targetName}${outcome.resumed ? ' (an interrupted copy started over)' : ''}.\n${formatChecks(outcome.tables)}`,
    );
    finished = true;
  } finally {
    await embedded?.close();
    await postgres.close();
    // A directory this command created for a copy that failed (not one that was killed) holds nothing worth keeping.
    if (!finished && direction === 'from' && createdDataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

async function openEmbedded(dataDir: string): Promise<Database> {
  try {
    return await openDatabase({ dataDir });
  } catch (error) {
    if (error instanceof DataDirectoryInUseError && error.reason === 'in-use') {
      throw new CommandError(`${error.message} Stop the service first: the copy must see every write, and none may follow it.`);
    }
    throw error;
  }
}

/** The URL without its password, for messages and the target's marker. */
function describePostgres(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CommandError('the PostgreSQL URL is not a URL; expected postgres://user@host:5432/database.');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new CommandError('the PostgreSQL URL must start with postgres:// or postgresql://.');
  parsed.password = '';
  return parsed.toString();
}

function formatChecks(checks: readonly TableCheck[]): string {
  const header = ['table', 'source rows', 'target rows', 'source checksum', 'target checksum'];
  const rows = checks.map((check) => [check.table, String(check.sourceRows), String(check.targetRows), check.sourceChecksum, check.targetChecksum]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\nEvery table matches: same row count and checksum on both sides.\n`;
}

if (isEntryPoint(import.meta.url)) await runCommand('db:copy', copyUsage, () => copy(process.argv.slice(2)));
