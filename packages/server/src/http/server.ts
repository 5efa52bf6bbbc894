// The HTTP server around the app: timeouts against slow clients, the URL it actually listens on (for
// PORT=0), and a graceful close: stop accepting, let requests in flight finish (their answers say
// `Connection: close`), close keep-alive sockets once they are idle, and cut whatever is left when the
// grace period ends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config.js';

/**
 * How long a closing server waits before closing idle keep-alive connections. A client may have sent
 * a request on such a connection that still sits unread in the socket buffer (a busy event loop reads
 * it late); closing it then would reset a request the client rightly thinks was sent. Each close of
 * idle connections also runs in the check phase (setImmediate), right after the loop's poll phase has
 * read whatever had arrived: such a request is then being handled, and its answer closes the socket.
 */
const idleCloseDelayMs = 250;
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
        const timers: NodeJS.Timeout[] = [];
        timers.push(setTimeout(() => server.closeAllConnections(), graceMs));
        const closeIdleAfterPoll = (): void => {
          setImmediate(() => server.closeIdleConnections());
        };
        timers.push(
          setTimeout(() => {
            closeIdleAfterPoll();
            timers.push(setInterval(closeIdleAfterPoll, idleSweepIntervalMs));
          }, Math.min(idleCloseDelayMs, graceMs)),
        );
        // net.Server's close only stops accepting; http.Server's would also close idle connections at
        // once, which is the race idleCloseDelayMs avoids.
        NetServer.prototype.close.call(server, () => {
          for (const timer of timers) clearTimeout(timer);
          // Now http.Server's own close only stops its connection-checking timer (and reports, as
          // expected, that the server is no longer running).
          server.close(() => resolve());
        });
      });
      return closed;
    },
  };
}
