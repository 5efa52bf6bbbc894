// Graceful shutdown of the HTTP server: a request in flight finishes, new connections are refused,
// a request on an idle keep-alive connection is answered with `Connection: close` (never reset), and
// a request that will not finish is cut when the grace period ends.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { startTestService, token, type TestService } from './support/service.js';

/**
 * Opens 5 connections on "go", sends a health check on each, creates the marker file once all 5 are
 * written, and prints each status line or error.
 */
const backlogClient = `
const net = require('node:net');
const fs = require('node:fs');
const [port, marker, count] = process.argv.slice(1);
process.stdin.once('data', () => {
  let written = 0;
  for (let index = 0; index < Number(count); index += 1) {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.write('GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n', () => {
      written += 1;
      if (written === Number(count)) fs.writeFileSync(marker, 'sent');
    });
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', (error) => console.log(JSON.stringify({ error: error.code })));
    socket.on('close', () => received && console.log(JSON.stringify({ status: received.split('\\r\\n')[0] })));
  }
  process.stdin.destroy();
});
console.log('ready');
`;

/** A users list that answers only when the test says so. */
function gatedUsers() {
  let open: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const handlers = stubHandlers({
    listUsers: async () => {
      entered();
      await gate;
      return { status: 200, body: { users: [] } };
    },
  });
  return { handlers, open: () => open(), reached };
}

/** A GET on a fresh keep-alive connection, reporting what happened to the socket. */
function getOnOwnConnection(url: string, headers: Record<string, string>): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const agent = new http.Agent({ keepAlive: true });
    const request = http.get(url, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        agent.destroy();
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection });
      });
    });
    request.on('error', (error) => {
      agent.destroy();
      reject(error);
    });
  });
}

describe('graceful shutdown', () => {
  const database = useTestDatabase('postgres', { name: 'http_shutdown' });
  const services: TestService[] = [];
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
  });

  it('finishes the request in flight, refuses new connections and serves the idle keep-alive connection its last answer', async () => {
    const gated = gatedUsers();
    const service = await startTestService({ database: database(), handlers: gated.handlers });
    services.push(service);
    const authorization = `Bearer ${await token()}`;

    // An idle keep-alive connection (fetch keeps it in its pool): it must not delay the close.
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);

    const inFlight = getOnOwnConnection(`${service.url}/api/v1/users`, { authorization });
    await gated.reached;
    const started = Date.now();
    const closed = service.server.close(10_000);

    // Once the listener is closed, a request on the idle kept-alive connection is still answered (its
    // client may have sent it just then) and says that the connection ends with it; a new connection
    // is refused.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const onIdleConnection = await fetch(`${service.url}/healthz`);
    expect(onIdleConnection.status).toBe(200);
    expect(onIdleConnection.headers.get('connection')).toBe('close');
    await onIdleConnection.text();
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    gated.open();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ users: [] });
    expect(answer.connection).toBe('close');
    await closed;
    // Well before the keep-alive timeout (5 s) or the grace period (10 s).
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('answers a request already sent on an idle keep-alive connection when the close begins', async () => {
    const service = await startTestService({ database: database() });
    services.push(service);
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const request = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n';
    let received = '';
    let closed: Promise<void> | undefined;
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (closed !== undefined || !received.includes('{"status":"ok"}')) return;
      received = '';
      // Within this I/O callback: the close begins just as the client sends its next request, and the
      // event loop then stays busy for longer than the close's idle delay (as on a loaded machine).
      // When the loop turns, the delay's timer is due before the request has been read.
      closed = service.server.close(5_000);
      socket.write(request);
      const busyUntil = Date.now() + 600;
      while (Date.now() < busyUntil) {
        // Blocking on purpose: client and server share this process.
      }
    });
    socket.write(request);
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(received).toMatch(/connection: close/i);
    expect(received).toContain('{"status":"ok"}');
    await closed;
  });

  /**
   * Starts a client in another process, so that it can connect while this process (the server) is
   * busy, and blocks until it has sent `count` requests: its connections were completed by the kernel
   * and wait, requests sent, in the listen backlog of this (blocked) process. Resolves with each
   * connection's answer once the client has exited.
   */
  async function requestsWaitingInTheBacklog(service: TestService, count: number): Promise<{ answers: Promise<Array<{ status?: string; error?: string }>> }> {
    const marker = join(mkdtempSync(join(tmpdir(), 'backlog-')), 'sent');
    const client = spawn(process.execPath, ['-e', backlogClient, new URL(service.url).port, marker, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: client.stdout });
    const output: string[] = [];
    const ready = new Promise<void>((resolve) => lines.on('line', (line) => (line === 'ready' ? resolve() : output.push(line))));
    const exited = new Promise((resolve) => client.once('exit', resolve));
    await ready;
    client.stdin.write('go\n');
    const giveUpAt = Date.now() + 15_000;
    while (!existsSync(marker) && Date.now() < giveUpAt) {
      // Blocking on purpose.
    }
    expect(existsSync(marker)).toBe(true);
    return { answers: exited.then(() => output.map((line) => JSON.parse(line) as { status?: string; error?: string })) };
  }

  it('answers connections still waiting in the listen backlog when the close begins', async () => {
    const service = await startTestService({ database: database() });
    services.push(service);
    const { answers } = await requestsWaitingInTheBacklog(service, 5);
    const closed = service.server.close(5_000);
    const answered = await answers;
    await closed;
    expect(answered).toHaveLength(5);
    for (const answer of answered) expect(answer.status).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('answers every connection in the listen backlog when each turn of its loop is slow (one connection accepted per turn)', async () => {
    const service = await startTestService({ database: database() });
    services.push(service);
    // Node takes one connection from the backlog per turn of its event loop. A server short of CPU
    // (here: every turn made 20 ms long) takes 30 waiting connections over 30 slow turns, longer
    // than the close's first 250 ms: a listener closed then resets the connections still waiting.
    const { answers } = await requestsWaitingInTheBacklog(service, 30);
    let slow = true;
    const slowTurn = (): void => {
      const until = Date.now() + 20;
      while (Date.now() < until) {
        // Blocking on purpose.
      }
      if (slow) setImmediate(slowTurn);
    };
    setImmediate(slowTurn);
    const closed = service.server.close(5_000);
    const answered = await answers.finally(() => (slow = false));
    await closed;
    expect(answered.filter((answer) => answer.error !== undefined)).toEqual([]);
    expect(answered).toHaveLength(30);
    for (const answer of answered) expect(answer.status).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('answers a request that arrives shortly after the close began on a connection opened before it', async () => {
    const service = await startTestService({ database: database() });
    services.push(service);
    // A busy client: the kernel completed its connection before the close, its request follows 400 ms
    // later (longer than the drain window). Node counts a connection that has not sent a request yet
    // as active, not idle (its headers timeout runs): the idle sweep must leave it to be answered.
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    const closed = service.server.close(5_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(received).toMatch(/connection: close/i);
    await closed;
  });

  it('cuts a request that does not finish within the grace period', async () => {
    const gated = gatedUsers();
    const service = await startTestService({ database: database(), handlers: gated.handlers });
    services.push(service);

    // Its failure is caught at once: the cut may come before the close resolves.
    const inFlight = getOnOwnConnection(`${service.url}/api/v1/users`, { authorization: `Bearer ${await token()}` }).then(
      (answer) => answer,
      (error: unknown) => error,
    );
    await gated.reached;
    const started = Date.now();
    await service.server.close(300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(String(await inFlight)).toMatch(/socket hang up|ECONNRESET/);
    gated.open();
  });
});
