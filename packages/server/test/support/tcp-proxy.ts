// A TCP proxy on a free loopback port that a test can cut and restore, to take PostgreSQL or Redis
// away from the service without touching the shared servers. Cut: every open connection is reset and
// new ones are reset on arrival (what a crashed or unreachable server looks like to a client);
// restore: connections are forwarded again. The one such helper: the robustness tests import it too.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  host: string;
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let open = true;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server: Server = createServer((client) => {
    track(client);
    if (!open) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    cut() {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The proxy's target as `{host, port}`, read from a service URL (`postgres://…`, `redis://…`). */
export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}

/** The same URL with host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = proxy.host;
  parsed.port = String(proxy.port);
  return parsed.toString();
}
