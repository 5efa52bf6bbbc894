// The one line for a port that cannot be bound (taken, forbidden, or an address not on this machine),
// naming the setting to change. Its own module, free of the database and HTTP libraries, so that
// main.ts can check its ports and say this before it loads them (port-check.ts).
import type { Config } from '../config.js';

/** The line for a bind error of the API's or the metrics' listener; undefined for any other error. */
export function listenFailure(error: unknown, config: Pick<Config, 'host' | 'port' | 'metrics'>): string | undefined {
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
