// The bench's requests keep their connections for the next request, and let go of them when the server
// they go to is about to stop, so that its graceful stop does not wait out their keep-alive timeout.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleConnections, send } from '../src/http-request.js';

const servers: Server[] = [];

async function echoServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => response.writeHead(201, { 'content-type': 'text/plain' }).end(`${request.method} ${body}`));
  });
  server.keepAliveTimeout = 60_000;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('send', () => {
  it('sends the method and body and answers the status and the whole text, on one reused connection', async () => {
    const { server, url } = await echoServer();
    const first = await send(new URL('/x', url), { method: 'POST', body: '{"a":"ä"}', timeoutMs: 5_000 });
    const second = await send(new URL('/x', url), { method: 'PATCH', body: 'b', timeoutMs: 5_000 });
    expect(first).toMatchObject({ status: 201, text: 'POST {"a":"ä"}' });
    expect(second).toMatchObject({ status: 201, text: 'PATCH b' });
    expect(await openConnections(server)).toBe(1);
  });

  it('sends a request once more on a new connection when the kept one is reset before any answer', async () => {
    // The second request on a connection finds it closed, as when the server's keep-alive timeout
    // ends at the instant the request is written.
    const served = new WeakSet<object>();
    const requestsSeen: string[] = [];
    const server = createServer((request, response) => {
      requestsSeen.push(request.url ?? '');
      if (served.has(request.socket)) {
        request.socket.destroy();
        return;
      }
      served.add(request.socket);
      response.writeHead(200).end(request.url);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    expect(await send(new URL('/first', url), { method: 'GET', timeoutMs: 5_000 })).toMatchObject({ status: 200, text: '/first' });
    expect(await send(new URL('/second', url), { method: 'POST', body: 'b', timeoutMs: 5_000 })).toMatchObject({ status: 200, text: '/second' });
    expect(requestsSeen).toEqual(['/first', '/second', '/second']);
  });

  it('does not send again when a new connection is reset: that is the answer', async () => {
    let requestsSeen = 0;
    const server = createServer((request) => {
      requestsSeen += 1;
      request.socket.destroy();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    await expect(send(new URL(url), { method: 'GET', timeoutMs: 5_000 })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requestsSeen).toBe(1);
  });

  it('rejects when the server does not answer in time', async () => {
    const server = createServer(() => {});
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(send(new URL(url), { method: 'GET', timeoutMs: 50 })).rejects.toThrow(/abort|timeout/i);
  });
});

describe('closeIdleConnections', () => {
  it("closes the idle connections to one server and leaves another server's alone", async () => {
    const stopping = await echoServer();
    const staying = await echoServer();
    await send(new URL(stopping.url), { method: 'GET', timeoutMs: 5_000 });
    await send(new URL(staying.url), { method: 'GET', timeoutMs: 5_000 });
    expect(await openConnections(stopping.server)).toBe(1);

    closeIdleConnections(stopping.url);

    await until(async () => (await openConnections(stopping.server)) === 0);
    expect(await openConnections(staying.server)).toBe(1);
  });
});
