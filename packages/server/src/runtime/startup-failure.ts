// Why the service could not start, in one line that names the cause and the remedy, for the causes a
// person can fix from the message alone: a port taken, an address not on this machine, PostgreSQL not
// reachable or refusing. A stack trace would only hide that line; main.ts prints it at LOG_LEVEL=debug.
import type { Config } from '../config.js';
import { isDatabaseUnavailable } from '../db/database.js';

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

function listenFailure(error: unknown, config: Pick<Config, 'host' | 'port' | 'metrics'>): string | undefined {
  if (typeof error !== 'object' || error === null || !('syscall' in error) || error.syscall !== 'listen') return undefined;
  const { code, port, address } = error as { code?: unknown; port?: unknown; address?: unknown };
  // The metrics listener fails with its own port: name the setting the person has to change.
  const metrics = config.metrics !== undefined && port === config.metrics.port && port !== config.port;
  const portSetting = metrics ? 'METRICS_PORT' : 'PORT';
  const hostSetting = metrics ? 'METRICS_HOST' : 'HOST';
  const where = `${String(address ?? (metrics ? config.metrics?.host : config.host))}:${String(port)}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${String(port)} is in use (${where}): set ${portSetting} to another port, or stop the other process`;
    case 'EACCES':
      return `no permission to listen on ${where}: set ${portSetting} to a port above 1023, or run with the right to bind it`;
    case 'EADDRNOTAVAIL':
      return `${String(address)} is not an address of this machine: set ${hostSetting} to one of its addresses (127.0.0.1, 0.0.0.0)`;
    default:
      return undefined;
  }
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
