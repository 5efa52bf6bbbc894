// Listening, for both of the service's servers (the API and the metrics listener): resolves once the
// port is bound, rejects with the bind error (EADDRINUSE...) instead of leaving it to a global handler.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Binds `server` and resolves with its base URL (`http://127.0.0.1:3000`, IPv6 in brackets). */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}
