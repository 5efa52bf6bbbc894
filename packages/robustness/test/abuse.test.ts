// Hostile input: SQL injection in every part of a search, forged tokens, another account's ids,
// oversize bodies and clients that send slowly. Nothing here may produce a 5xx or change data.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAgainstSpec } from './support/contract.js';
import { useServiceOnPostgres } from './support/fixtures.js';
import { startService, type ServiceProcess } from './support/service.js';
import { call } from './support/http.js';
import { forgedTokens, token } from './support/tokens.js';

// The service as configured by default: the hostile searches below go out at once, and on a busy
// machine a 2 s request timeout would cut requests whose bodies the service had not read yet.
const fixture = useServiceOnPostgres('robust_abuse');
// Short timeouts (the configuration's minimum), for the slow-client cases only, so they finish quickly.
const headersTimeoutMs = 1_000;
const requestTimeoutMs = 2_000;

/** The CPU time a process has used so far (user and system), in clock ticks: /proc/<pid>/stat's fields 14 and 15. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const injections = [
  "' or 1=1 --",
  "'; drop table invoices; --",
  '1; delete from invoices',
  "x') union select * from users --",
  '%',
  '_',
  '\\',
  '$1',
  'paid" or "1"="1',
  'created_at desc; drop table invoices',
  '(select 1)',
];

describe('abuse', () => {
  it('SQL injection in every part of a search is a 400 or a harmless answer, and the data is intact', async () => {
    const { service, postgres } = fixture();
    const bearer = await token();
    const [before] = await postgres.query<{ invoices: string; clients: string }>(
      'select (select count(*) from invoices) as invoices, (select count(*) from company_clients) as clients',
    );
    const bodies: unknown[] = [];
    for (const text of injections) {
      bodies.push({ criteria: [{ field: text, operator: '=', value: 'x' }] });
      bodies.push({ criteria: [{ field: 'status', operator: text, value: 'paid' }] });
      for (const field of ['status', 'currency', 'invoice_number', 'description', 'client_id', 'amount', 'due_date', 'created_at']) {
        bodies.push({ criteria: [{ field, operator: '=', value: text }] });
        bodies.push({ criteria: [{ field, operator: 'in', value: [text, text] }] });
      }
      bodies.push({ criteria: [{ field: 'description', operator: 'like', value: text }] });
      bodies.push({ criteria: [{ field: 'amount', operator: 'between', value: [text, 5] }] });
      bodies.push({ order_by: text });
      bodies.push({ order_direction: text });
      bodies.push({ [text]: 1 });
    }
    const answers = await Promise.all(bodies.map((body) => call(service.url, 'POST', '/api/v1/invoices/search', { token: bearer, body })));
    answers.forEach((answer, index) => {
      expect([200, 400], JSON.stringify(bodies[index])).toContain(answer.status);
      expect(checkAgainstSpec('searchInvoices', answer.status, answer.body).errors).toEqual([]);
    });
    // An injected literal is only ever a value: `like '%'` finds descriptions containing a percent sign.
    const percent =
      answers[bodies.findIndex((body) => JSON.stringify(body) === JSON.stringify({ criteria: [{ field: 'description', operator: 'like', value: '%' }] }))];
    expect(percent?.status).toBe(200);
    const [literalPercent] = await postgres.query<{ n: string }>("select count(*) as n from invoices where account_id = 1 and strpos(description, '%') > 0");
    expect((percent?.body as { pagination: { total: number } } | undefined)?.pagination.total).toBe(Number(literalPercent?.n));
    const [after] = await postgres.query<{ invoices: string; clients: string }>(
      'select (select count(*) from invoices) as invoices, (select count(*) from company_clients) as clients',
    );
    expect(after).toEqual(before);
  });

  it('every forged token is a 401 with WWW-Authenticate, never a 5xx', async () => {
    const { service } = fixture();
    for (const [name, forged] of Object.entries(await forgedTokens())) {
      const answer = await call(service.url, 'POST', '/api/v1/invoices/search', { token: forged, body: {} });
      expect(answer.status, name).toBe(401);
      expect(answer.headers.get('www-authenticate'), name).toMatch(/^Bearer realm="invoice-api", error="invalid_token", error_description="[^"]+"$/);
      expect((answer.body as { error: string }).error, name).toBe('unauthorized');
    }
  });

  it("another account's invoice, delivery and client answer 404, like ones that do not exist", async () => {
    const { service, postgres } = fixture();
    const outsider = await token({ accountId: 2 });
    const [invoice] = await postgres.query<{ id: string }>('select min(id) as id from invoices where account_id = 1');
    const [delivery] = await postgres.query<{ id: string }>('select min(id) as id from deliveries where account_id = 1');
    const [client] = await postgres.query<{ id: string }>('select min(id) as id from company_clients where account_id = 1');
    for (const path of [`/api/v1/invoices/${invoice?.id}`, `/2.0/delivery/${delivery?.id}`, `/api/v1/company_clients/${client?.id}`]) {
      const answer = await call(service.url, 'GET', path, { token: outsider });
      expect(answer.status, path).toBe(404);
      expect((answer.body as { error: string }).error).toBe('not_found');
    }
    const patch = await call(service.url, 'PATCH', `/api/v1/invoices/${invoice?.id}`, { token: outsider, body: { description: 'taken over' } });
    expect(patch.status).toBe(404);
    const search = await call(service.url, 'POST', '/api/v1/invoices/search', {
      token: outsider,
      body: { criteria: [{ field: 'client_id', operator: '=', value: Number(client?.id) }] },
    });
    expect(search.status).toBe(200);
    expect((search.body as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('a body over 1 MiB is a 413 with a valid token and a 401 without one', async () => {
    const { service } = fixture();
    const oversize = JSON.stringify({ criteria: [{ field: 'description', operator: 'like', value: 'x'.repeat(1024 * 1024 + 10) }] });
    const withToken = await call(service.url, 'POST', '/api/v1/invoices/search', {
      token: await token(),
      rawBody: oversize,
      headers: { 'content-type': 'application/json' },
    });
    expect(withToken.status).toBe(413);
    expect((withToken.body as { error: string }).error).toBe('payload_too_large');
    const withoutToken = await call(service.url, 'POST', '/api/v1/invoices/search', { rawBody: oversize, headers: { 'content-type': 'application/json' } });
    expect(withoutToken.status).toBe(401);
  });

  it('a small body with thousands of invalid items costs the service no more CPU than one just over the limit', async () => {
    const { service, clientId } = fixture();
    const bearer = await token();
    // 30 KB: 10,000 empty objects where 500 items at most are allowed. The first problem (too many
    // items) decides the answer; collecting the 30,000 others (three missing fields per item) costs
    // tens of milliseconds of CPU per request. Compared with a body of 501 items, sent as often: the
    // service's CPU time, not the wall clock, so a busy machine does not change the outcome.
    const withItems = (count: number) => ({ contact_id: clientId, items: Array.from({ length: count }, () => ({})) });
    const cpuFor = async (body: unknown): Promise<number> => {
      const before = cpuTicks(service.child.pid!);
      for (let sent = 0; sent < 100; sent += 1) {
        const answer = await call(service.url, 'POST', '/2.0/delivery', { token: bearer, body });
        expect(answer.status).toBe(400);
        expect((answer.body as { details: { field: string } }).details.field).toBe('items');
      }
      return cpuTicks(service.child.pid!) - before;
    };
    // Both warmed first, so that neither measurement carries the first requests' compilation.
    await cpuFor(withItems(501));
    await cpuFor(withItems(10_000));
    const justOver = await cpuFor(withItems(501));
    const thousands = await cpuFor(withItems(10_000));
    expect(thousands, `CPU ticks: ${thousands} for 10,000 items, ${justOver} for 501`).toBeLessThan(3 * justOver + 20);
  });

  it('a NUL character in a string is a 400, never a 500 (PostgreSQL cannot store U+0000)', async () => {
    const { service, clientId } = fixture();
    const bearer = await token();
    const create = await call(service.url, 'POST', '/api/v1/invoices', {
      token: bearer,
      body: { client_id: clientId, amount: 1, currency: 'CHF', due_date: '2026-12-31', description: 'a\u0000b' },
    });
    expect(create.status).toBe(400);
    const search = await call(service.url, 'POST', '/api/v1/invoices/search', {
      token: bearer,
      body: { criteria: [{ field: 'description', operator: '=', value: 'a\u0000b' }] },
    });
    expect([200, 400]).toContain(search.status);
  });

  /** Resolves when the server closes the socket, with what it sent first; rejects after `limitMs`. */
  function closedWithin(socket: Socket, limitMs: number): Promise<{ afterMs: number; received: string }> {
    const started = Date.now();
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the server kept a slow client's socket open for over ${limitMs} ms`));
      }, limitMs);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve({ afterMs: Date.now() - started, received });
      });
      socket.on('error', () => undefined);
    });
  }

  function slowSocket(url: string): Promise<Socket> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve) => {
      const socket = connect(Number(port), hostname, () => resolve(socket));
    });
  }

  describe('with the shortest timeouts', () => {
    let service: ServiceProcess;
    beforeAll(async () => {
      service = await startService({
        DATABASE_URL: fixture().postgres.url,
        HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
        REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      });
    });
    afterAll(() => service?.stop());

    it('a client that sends its headers too slowly is cut by the headers timeout', async () => {
      const socket = await slowSocket(service.url);
      socket.write('POST /api/v1/invoices/search HTTP/1.1\r\nHost: localhost\r\n');
      // One header line every 300 ms, forever: only the server's timeout ends this.
      const drip = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 300);
      try {
        const outcome = await closedWithin(socket, headersTimeoutMs + 6_000);
        expect(outcome.afterMs).toBeGreaterThanOrEqual(headersTimeoutMs - 100);
        expect(outcome.received === '' || outcome.received.startsWith('HTTP/1.1 408')).toBe(true);
      } finally {
        clearInterval(drip);
      }
    });

    it('a client that sends its body too slowly is cut by the request timeout', async () => {
      const bearer = await token();
      const socket = await slowSocket(service.url);
      socket.write(
        `POST /api/v1/invoices/search HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${bearer}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      const drip = setInterval(() => socket.writable && socket.write(' '), 300);
      try {
        const outcome = await closedWithin(socket, requestTimeoutMs + 6_000);
        expect(outcome.afterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 100);
        expect(outcome.received).not.toMatch(/^HTTP\/1\.1 5/);
      } finally {
        clearInterval(drip);
      }
    });
  });
});
