// The HTTP server around the app: timeouts against slow clients, the URL it actually listens on (for
// PORT=0), and a graceful close: stop accepting, let requests in flight finish, close keep-alive
// sockets as soon as they are idle, and cut whatever is left when the grace period ends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config.js';

export interface RunningServer {
  server: Server;
  /** `http://host:port` with the port actually bound. */
  url: string;
  /** Resolves once every connection is closed; connections still busy after `graceMs` are cut. */
  close(graceMs: number): Promise<void>;
}

export async function startServer(app: Express, options: Pick<Config, 'host' | 'port' | 'timeouts'>): Promise<RunningServer> {
  const server = createServer(app);
  server.headersTimeout = options.timeouts.headersMs;
  server.requestTimeout = options.timeouts.requestMs;
  server.keepAliveTimeout = options.timeouts.keepAliveMs;

  const inFlight = new Set<ServerResponse<IncomingMessage>>();
  let closing = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse<IncomingMessage>) => {
    inFlight.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      // The socket this answer used may now be idle: close it rather than wait for keep-alive to end.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close(graceMs) {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        // Answers not yet sent tell their client that this connection ends with them.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closed;
    },
  };
}
