// The HTTP server around the app: timeouts against slow clients, the URL it actually listens on (for
// PORT=0), and a graceful close: stop accepting, let requests in flight finish (their answers say
// `Connection: close`), close keep-alive sockets once they are idle, and cut whatever is left when the
// grace period ends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config.js';

/**
 * How long a closing server keeps accepting and keeps idle keep-alive connections open. On a busy
 * server, clients' connections wait in the kernel's listen backlog with their requests already sent,
 * and requests sit unread in the buffers of idle keep-alive connections: closing the listener or those
 * connections at once would reset requests the clients rightly think were sent. During this window
 * they are accepted and read, and answered with `Connection: close`.
 */
const drainWindowMs = 250;
/** Afterwards, connections that became idle without a `Connection: close` answer are swept this often. */
const idleSweepIntervalMs = 500;

export interface RunningServer {
  server: Server;
  /** `http://host:port` with the port actually bound. */
  url: string;
  /** Resolves once every connection is closed; connections still busy after `graceMs` are cut. */
  close(graceMs: number): Promise<void>;
}

export async function startServer(app: Express, options: Pick<Config, 'host' | 'port' | 'timeouts'>): Promise<RunningServer> {
  const server = createServer(
    {
      // Node enforces headersTimeout and requestTimeout only when it checks its connections (every
      // 30 s by default): check often enough that the configured limits actually hold.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(options.timeouts.headersMs / 2))),
    },
    app,
  );
  server.headersTimeout = options.timeouts.headersMs;
  server.requestTimeout = options.timeouts.requestMs;
  server.keepAliveTimeout = options.timeouts.keepAliveMs;

  const inFlight = new Set<ServerResponse<IncomingMessage>>();
  let closing = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse<IncomingMessage>) => {
    inFlight.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => inFlight.delete(res));
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
        let sweep: NodeJS.Timeout | undefined;
        // Each step runs in the check phase (setImmediate), right after a poll phase: by then the
        // backlog has been accepted and whatever had arrived on a connection has been read.
        const closeIdleAfterPoll = (): void => {
          setImmediate(() => server.closeIdleConnections());
        };
        setTimeout(() => {
          setImmediate(() => {
            // net.Server's close only stops accepting; http.Server's would also close idle
            // connections before their pending requests were read.
            NetServer.prototype.close.call(server, () => {
              clearTimeout(force);
              clearInterval(sweep);
              // Now http.Server's own close only stops its connection-checking timer (and reports, as
              // expected, that the server is no longer running).
              server.close(() => resolve());
            });
            closeIdleAfterPoll();
            sweep = setInterval(closeIdleAfterPoll, idleSweepIntervalMs);
          });
        }, Math.min(drainWindowMs, graceMs));
      });
      return closed;
    },
  };
}
