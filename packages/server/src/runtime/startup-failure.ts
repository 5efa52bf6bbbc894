// Why the service could not start, in one line that names the cause and the remedy, for the causes a
// person can fix from the message alone: a port taken, an address not on this machine, PostgreSQL not
// reachable or refusing. A stack trace would only hide that line; main.ts prints it at LOG_LEVEL=debug.
import type { Config } from '../config.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { listenFailure } from './listen-failure.js';

/** The one line for a known cause; undefined for anything else (then the error's own first line). */
export function describeStartupFailure(error: unknown, config: Pick<Config, 'host' | 'port' | 'metrics' | 'database'>): string | undefined {
  const listen = listenFailure(error, config);
  if (listen !== undefined) return listen;
  const databaseUrl = config.database.url;
  if (databaseUrl === undefined || databaseUrl === 'memory:') return undefined;
  const target = postgresTarget(databaseUrl);
  if (isDatabaseUnavailable(error)) {
    const code = findCode(error, (candidate) => /^E[A-Z]+$/.test(candidate));
    const reason = code === undefined ? '' : ` (${code})`;
    return `cannot reach PostgreSQL at ${target.address}${reason}: is it running, and is DATABASE_URL right? DATABASE_URL=${target.redacted}`;
  }
  const sqlState = findCode(error, (candidate) => /^[0-9A-Z]{5}$/.test(candidate));
  if (sqlState === '3D000') {
    return `PostgreSQL at ${target.address} has no database "${target.database}": create it (createdb -h ${target.host} -p ${target.port} ${target.database}) or fix DATABASE_URL=${target.redacted}`;
  }
  if (sqlState === '28P01' || sqlState === '28000') {
    return `PostgreSQL at ${target.address} refused user "${target.user}" (${sqlState}): fix the user or password in DATABASE_URL=${target.redacted}`;
  }
  return undefined;
}

/** Host, port, database and user of a postgres URL, and the URL itself with any password masked. */
function postgresTarget(databaseUrl: string): { host: string; port: string; address: string; database: string; user: string; redacted: string } {
  const url = new URL(databaseUrl);
  const host = url.hostname === '' ? 'localhost' : url.hostname;
  const port = url.port === '' ? '5432' : url.port;
  if (url.password !== '') url.password = '***';
  return {
    host,
    port,
    address: `${host}:${port}`,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres',
    user: decodeURIComponent(url.username) || 'postgres',
    redacted: url.toString(),
  };
}

/** The first `code` in the error, its `errors` (AggregateError) or its causes that `accept` takes. */
function findCode(error: unknown, accept: (code: string) => boolean, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && accept(code)) return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = findCode(inner, accept, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return findCode(cause, accept, depth + 1);
}
