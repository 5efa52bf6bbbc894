// The bench's own requests (warm-ups, fixed-count runs, single-client checks) on node:http through one
// keep-alive agent. A service's graceful stop lets idle keep-alive connections run out the timeout its
// last answer advertised before it exits; fetch's connection pool cannot be told to let go of them,
// this agent can, so that stopping a server (child-process.ts) does not wait seconds for nothing.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

const agent = new Agent({ keepAlive: true });

export interface SendOptions {
  method: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface Answer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

/** A request on a kept connection that was reset before any answer came (see `send`). */
class StaleConnectionError extends Error {}

function attempt(url: URL, options: SendOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(url, { method: options.method, headers: options.headers, agent, signal }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: incoming.headers }));
      incoming.on('error', reject);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const reset = error.code === 'ECONNRESET' || error.code === 'EPIPE';
      reject(outgoing.reusedSocket && reset ? new StaleConnectionError(error.message, { cause: error }) : error);
    });
    // A string given to end() before any header is written is sent with its Content-Length.
    outgoing.end(options.body);
  });
}

/**
 * One request, the whole answer read. A server closes a connection that stayed idle for its keep-alive
 * timeout; a request the agent writes to that connection in the same instant is reset (Node's
 * documentation of `request.reusedSocket` describes the race). Such a request is sent once more on a
 * new connection, after the agent's other idle connections to that server are dropped (they have been
 * idle as long). From the client's side a reset cannot tell whether the server had read the request,
 * so this is only for requests that may run twice: the bench sends reads, and writes each with an
 * Idempotency-Key of its own, whose repeat replays the first answer. A reset on a new connection is
 * the server's answer and is not retried.
 */
export async function send(url: URL, options: SendOptions): Promise<Answer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    return await attempt(url, options, signal);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    closeIdleConnections(url.href);
    return attempt(url, options, signal);
  }
}

/** Closes this process's idle connections to the server at `serverUrl`; connections in use are left alone. */
export function closeIdleConnections(serverUrl: string): void {
  const { hostname, port } = new URL(serverUrl);
  const name = agent.getName({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
  for (const socket of agent.freeSockets[name] ?? []) socket.destroy();
}
