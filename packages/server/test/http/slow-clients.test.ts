// Slow clients are cut by the configured timeouts (checked often enough that a short limit holds).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/databases.js';
import { startTestService, token, type TestService } from './support/service.js';

/** Resolves with how long the server took to close the socket; rejects after `limitMs`. */
function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the socket was still open after ${limitMs} ms`));
    }, limitMs);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('slow clients', () => {
  const database = useTestDatabase('postgres', { name: 'http_slow' });
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ database: database(), env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500' } });
  });
  afterAll(() => service?.close());

  const open = async (): Promise<Socket> => {
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };

  it('cuts a client that drips its headers', async () => {
    const socket = await open();
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 200);
    try {
      expect(await closedWithin(socket, 6_000)).toBeGreaterThanOrEqual(900);
    } finally {
      clearInterval(drip);
    }
  });

  it('cuts a client that drips its body', async () => {
    const socket = await open();
    socket.write(
      `POST /api/v1/invoices/search HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${await token()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 200);
    try {
      expect(await closedWithin(socket, 6_000)).toBeGreaterThanOrEqual(1_400);
    } finally {
      clearInterval(drip);
    }
  });
});
