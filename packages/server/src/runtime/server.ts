// The HTTP server around the app: timeouts against slow clients, the URL it actually listens on (for
// PORT=0), and a graceful close that resets no request a client has sent: from the close on, answer
// every request with `Connection: close`, stop accepting once the listen backlog is drained, let idle
// keep-alive connections run out their advertised keep-alive timeout, and cut whatever is left when
// the grace period ends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config.js';
import { listen } from './listen.js';

/** How long a closing server keeps accepting at least, for the connections already in its listen backlog. */
const drainWindowMs = 250;
/**
 * The most it keeps accepting while connections still arrive: answers that say `Connection: close`
 * are held until the listener closes, so it must close well within the grace period.
 */
const maxDrainMs = 2_000;

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
  // Connections accepted so far: the close watches it to see whether a turn of the loop accepted any.
  let accepted = 0;
  server.on('connection', () => {
    accepted += 1;
  });
  let closing = false;
  // Settled when the listener has closed; until then, answers that say `Connection: close` wait for it.
  let listenerClosed: (() => void) | undefined;
  const whenListenerClosed = new Promise<void>((resolve) => (listenerClosed = resolve));
  let listening = true;
  const sayClose = (res: ServerResponse<IncomingMessage>): void => {
    if (res.headersSent) return;
    res.setHeader('Connection', 'close');
    if (!listening) return;
    // Node's end() fully uncorks the socket, so the answer is held back here instead: its last write
    // waits for the listener to close.
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse<IncomingMessage>;
    res.end = ((...args: unknown[]) => {
      void whenListenerClosed.then(() => end(...args));
      return res;
    }) as typeof res.end;
  };
  // Ahead of the app's own listener, so that the header is set before an answer could have been sent.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse<IncomingMessage>) => {
    inFlight.add(res);
    if (closing) sayClose(res);
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
        // From now on every answer says `Connection: close`, and the server closes its connection once
        // it is written. An idle connection is left alone: its client may be sending on it right now,
        // and it closes at the keep-alive timeout its last answer advertised (`Keep-Alive: timeout=…`),
        // which clients honour with a margin.
        closing = true;
        for (const res of inFlight) sayClose(res);
        // The listener stays open for a short window, then closes in a check phase right after a poll
        // phase that accepted nothing: connections in the kernel's listen backlog (a busy server has
        // some, their requests already sent) would be reset by the close. Node takes one connection
        // from the backlog per turn of its loop, and a server short of CPU turns slowly, so the close
        // waits for a turn that finds none (at most maxDrainMs, so that held answers leave in time). Until
        // it closes, answers that say `Connection: close` are held back (their end waits): a client
        // told to go could otherwise reconnect into the backlog just as the listener closes and be
        // reset after sending; once the listener is closed it is refused instead, with nothing sent,
        // safe to retry elsewhere.
        const began = Date.now();
        const latestMs = Math.min(maxDrainMs, graceMs);
        const closeListener = (): void => {
          // net.Server's close only stops accepting; http.Server's would also close idle connections,
          // racing a client that is reusing one right then.
          NetServer.prototype.close.call(server, () => {
            clearTimeout(force);
            // Now http.Server's own close only stops its connection-checking timer (and reports, as
            // expected, that the server is no longer running).
            server.close(() => resolve());
          });
          listening = false;
          listenerClosed?.();
        };
        const closeAfterQuietTurn = (): void => {
          const before = accepted;
          setImmediate(() => {
            if (accepted === before || Date.now() - began >= latestMs) closeListener();
            else closeAfterQuietTurn();
          });
        };
        setTimeout(closeAfterQuietTurn, Math.min(drainWindowMs, graceMs));
      });
      return closed;
    },
  };
}
