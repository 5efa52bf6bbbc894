// The bench's own requests (warm-ups, fixed-count runs, single-client checks) on node:http through one
// keep-alive agent. A service's graceful stop lets idle keep-alive connections run out the timeout its
// last answer advertised before it exits; fetch's connection pool cannot be told to let go of them,
// this agent can, so that stopping a server (child-process.ts) does not wait seconds for nothing.
import { Agent, request } from 'node:http';

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
}

/** One request, the whole answer read. */
export function send(url: URL, options: SendOptions): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(url, { method: options.method, headers: options.headers, agent, signal: AbortSignal.timeout(options.timeoutMs) }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    // A string given to end() before any header is written is sent with its Content-Length.
    outgoing.end(options.body);
  });
}

/** Closes this process's idle connections to the server at `serverUrl`; connections in use are left alone. */
export function closeIdleConnections(serverUrl: string): void {
  const { hostname, port } = new URL(serverUrl);
  const name = agent.getName({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
  for (const socket of agent.freeSockets[name] ?? []) socket.destroy();
}
