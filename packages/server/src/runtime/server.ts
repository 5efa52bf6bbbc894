// The HTTP server around the app: timeouts against slow clients, the URL it actually listens on (for
// PORT=0), and a graceful close that resets no request a client has sent: stop accepting at once, from
// then on answer every request with `Connection: close`, let idle keep-alive connections run out their
// advertised keep-alive timeout, and cut whatever is left when the grace period ends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config.js';
import { listen } from './listen.js';

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
  // Ahead of the app's own listener, so that the header is set before an answer could have been sent.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse<IncomingMessage>) => {
    inFlight.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => inFlight.delete(res));
  });

  const baseUrl = await listen(server, options.port, options.host);

  let closed: Promise<void> | undefined;
  return {
    server,
    url: baseUrl,
    close(graceMs) {
      closed ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        // The listener closes first and at once, before any answer can say `Connection: close`: a
        // keep-alive client told to go then reconnects to a closed port and is refused (nothing sent,
        // safe to retry elsewhere) instead of landing in the listen backlog just as it closes and being
        // reset after sending. net.Server's close only stops accepting; http.Server's would also close
        // idle connections, racing a client that is reusing one right then.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          // Now http.Server's own close only stops its connection-checking timer (and reports, as
          // expected, that the server is no longer running).
          server.close(() => resolve());
        });
        closing = true;
        // Every answer from now on tells its client that this connection ends with it; the server closes
        // the connection once such an answer is written. An idle connection is left alone: its client may
        // be sending on it right now, and it closes at the keep-alive timeout its last answer advertised
        // (`Keep-Alive: timeout=…`), which clients honour with a margin.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      });
      return closed;
    },
  };
}
