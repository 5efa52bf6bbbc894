// Binds each port the service will listen on and releases it at once, before the slow part of the
// start (loading the libraries, opening and migrating the database, compiling the validators): a port
// in use is then reported in a moment, not after all of that. The real bind comes later
// (runtime/server.ts) and still reports its own failure, should another process take the port in
// between. Port 0 (any free port) cannot be taken: nothing to check.
import { createServer } from 'node:net';
import type { Config } from '../config.js';

/** Rejects with the bind error (EADDRINUSE, EACCES, EADDRNOTAVAIL) of the first port that cannot be bound. */
export async function checkPortsFree(config: Pick<Config, 'host' | 'port' | 'metrics'>): Promise<void> {
  await checkPortFree(config.port, config.host);
  if (config.metrics !== undefined) await checkPortFree(config.metrics.port, config.metrics.host);
}

async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
