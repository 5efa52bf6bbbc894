// The stateful mock in-process, over real HTTP: the fixture is the same on every start and differs by
// seed; writes are seen by the next reads; an issued delivery stays issued; POST /__mock/reset brings
// the fixture back (ids included), with rate-limit counters and idempotency keys, and no request sees
// a half-restored database; the route exists only here; CORS allows local origins only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { mintDevToken } from '../../src/dev/token.js';
import { startStatefulMock, type RunningStatefulMock } from '../../src/mock/stateful-mock.js';
import { startTestService } from '../http/support/service.js';
import { openDatabase } from '../../src/db/database.js';
import { pgliteTemplate } from '../support/databases.js';

const fixture = { invoices: 400, deliveries: 20 };
let workDir: string;
let keyFile: string;
let first: RunningStatefulMock;
let twin: RunningStatefulMock;
let otherSeed: RunningStatefulMock;

async function startMock(seed: number | undefined, env: Record<string, string> = {}): Promise<RunningStatefulMock> {
  const config = loadConfig({ DEV_KEY_FILE: keyFile, PORT: '0', LOG_LEVEL: 'silent', ...env });
  return startStatefulMock({
    config,
    logger: pino({ level: 'silent' }),
    fixture: { ...fixture, ...(seed === undefined ? {} : { seed }) },
    pgliteDataDirDump: await pgliteTemplate(),
    warmUp: false,
  });
}

// Timeouts here are upper bounds that only end a hung run, not waits: three mocks open PGlite and load their fixture
// (seconds when idle, a minute or more when the rest of the suite saturates the machine).
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'stateful-mock-'));
  keyFile = join(workDir, 'dev-key.json');
  await mintDevToken({ keyFile });
  // Three in-memory mocks side by side in one process: none takes a data-directory lock.
  [first, twin, otherSeed] = await Promise.all([startMock(undefined), startMock(undefined), startMock(7, { RATE_LIMIT_PER_MINUTE: '3' })]);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([first?.stop(), twin?.stop(), otherSeed?.stop()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(mock: RunningStatefulMock, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const token = headers.Authorization === undefined ? await mintDevToken({ keyFile, clientId: headers['X-Client'] ?? 'mock-test' }) : undefined;
  const response = await fetch(new URL(path, mock.url), {
    method,
    headers: {
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

interface InvoiceView {
  id: number;
  invoice_number: string;
  amount: number;
  client_name: string;
}
interface DeliveryView {
  id: number;
  delivery_nr: string;
  status: string;
  total_amount: number;
}

async function allInvoices(mock: RunningStatefulMock): Promise<{ total: number; data: InvoiceView[] }> {
  const answer = await call(mock, 'POST', '/api/v1/invoices/search', { limit: 1000, order_by: 'created_at', order_direction: 'asc' });
  expect(answer.status).toBe(200);
  return { total: (answer.body.pagination as { total: number }).total, data: answer.body.data as InvoiceView[] };
}

async function totalInvoices(mock: RunningStatefulMock): Promise<number> {
  const answer = await call(mock, 'POST', '/api/v1/invoices/search', { limit: 1 });
  return (answer.body.pagination as { total: number }).total;
}

async function createInvoice(mock: RunningStatefulMock, description: string, headers: Record<string, string> = {}): Promise<Answer> {
  return call(mock, 'POST', '/api/v1/invoices', { client_id: 1, amount: 12.5, currency: 'CHF', due_date: '2027-02-01', description }, headers);
}

describe('the fixture', () => {
  it('is the same on every start: ids, numbers, names and amounts; another seed gives other data', async () => {
    const [a, b, c] = await Promise.all([allInvoices(first), allInvoices(twin), allInvoices(otherSeed)]);
    expect(a.total).toBe(Math.round(fixture.invoices * 0.9));
    expect(a.data.length).toBe(a.total);
    expect(b).toEqual(a);
    expect(c.total).toBe(a.total);
    expect(c.data.map((invoice) => invoice.amount)).not.toEqual(a.data.map((invoice) => invoice.amount));
    expect(first.rows).toMatchObject({ accounts: 2, invoices: fixture.invoices, deliveries: fixture.deliveries });
    const [deliveries, twinDeliveries] = await Promise.all([call(first, 'GET', '/2.0/delivery?limit=1000'), call(twin, 'GET', '/2.0/delivery?limit=1000')]);
    expect(deliveries.body).toEqual(twinDeliveries.body);
  });
});

describe('state kept between calls, and POST /__mock/reset', () => {
  it('finds a created invoice by get and by search; after a reset it is gone and the next create gets the same id', async () => {
    const fixtureTotal = await totalInvoices(first);
    const created = await createInvoice(first, 'found by search');
    expect(created.status).toBe(201);
    const invoice = created.body.invoice as InvoiceView;
    expect((await call(first, 'GET', `/api/v1/invoices/${invoice.id}`)).body).toEqual({ invoice });
    const found = await call(first, 'POST', '/api/v1/invoices/search', { criteria: [{ field: 'description', operator: '=', value: 'found by search' }] });
    expect(found.body.data).toEqual([invoice]);
    expect(await totalInvoices(first)).toBe(fixtureTotal + 1);

    const reset = await call(first, 'POST', '/__mock/reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ reset: true, rows_restored: expect.any(Number) });
    expect((await call(first, 'GET', `/api/v1/invoices/${invoice.id}`)).status).toBe(404);
    expect(await totalInvoices(first)).toBe(fixtureTotal);
    const again = (await createInvoice(first, 'after the reset')).body.invoice as InvoiceView;
    expect([again.id, again.invoice_number]).toEqual([invoice.id, invoice.invoice_number]);
    await first.reset();
  });

  it('keeps an issued delivery issued (get, list, a second issue is 409), and a reset brings the fixture draft back', async () => {
    const list = (await call(first, 'GET', '/2.0/delivery?limit=1000')).body.deliveries as DeliveryView[];
    const draft = list.find((delivery) => delivery.status === 'draft');
    expect(draft).toBeDefined();
    const before = (await call(first, 'GET', `/2.0/delivery/${draft?.id}`)).body;
    const issue = { delivery_id: draft?.id, contact_id: 1, delivery_date: '2026-12-01', items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] };
    const issued = await call(first, 'POST', '/2.0/delivery/issue', issue);
    expect(issued.status).toBe(200);
    // issueDelivery answers the delivery itself; getDelivery wraps it.
    expect(issued.body).toMatchObject({ id: draft?.id, status: 'issued', total_amount: 59.97 });
    expect((await call(first, 'GET', `/2.0/delivery/${draft?.id}`)).body).toMatchObject({ delivery: { status: 'issued', total_amount: 59.97 } });
    const listed = (await call(first, 'GET', '/2.0/delivery?limit=1000')).body.deliveries as DeliveryView[];
    expect(listed.find((delivery) => delivery.id === draft?.id)?.status).toBe('issued');
    const twice = await call(first, 'POST', '/2.0/delivery/issue', issue);
    expect([twice.status, twice.body.error]).toEqual([409, 'already_issued']);

    await call(first, 'POST', '/__mock/reset');
    // Its lines too: issuing replaced them, the reset put the fixture's back.
    expect((await call(first, 'GET', `/2.0/delivery/${draft?.id}`)).body).toEqual(before);
  });

  it('lets no request see a half-restored database: every search during a reset sees the state before it or the fixture', async () => {
    const fixtureTotal = await totalInvoices(first);
    for (let index = 0; index < 3; index += 1) expect((await createInvoice(first, `before the reset ${index}`)).status).toBe(201);
    const searches = Array.from({ length: 20 }, () => totalInvoices(first));
    const [reset, ...totals] = await Promise.all([
      call(first, 'POST', '/__mock/reset'),
      ...searches,
      ...Array.from({ length: 20 }, () => totalInvoices(first)),
    ]);
    expect(reset.status).toBe(200);
    expect(reset.body.rows_restored).toBeGreaterThanOrEqual(3);
    for (const total of totals) expect([fixtureTotal, fixtureTotal + 3]).toContain(total);
    expect(await totalInvoices(first)).toBe(fixtureTotal);
  });

  it("recounts after a reset what a cursor taken before it carried: the account's invoice version never goes back", async () => {
    const probe = { criteria: [{ field: 'description', operator: '=', value: 'counted across a reset' }], order_by: 'id', order_direction: 'asc' };
    const search = async (extra: Record<string, unknown>): Promise<{ total: number; nextCursor: string | null }> => {
      const answer = await call(first, 'POST', '/api/v1/invoices/search', { ...probe, ...extra });
      expect(answer.status).toBe(200);
      const pagination = answer.body.pagination as { total: number; next_cursor: string | null };
      return { total: pagination.total, nextCursor: pagination.next_cursor };
    };
    for (let index = 0; index < 2; index += 1) expect((await createInvoice(first, 'counted across a reset')).status).toBe(201);
    const firstPage = await search({ limit: 1 });
    expect(firstPage.total).toBe(2);
    expect(firstPage.nextCursor).toEqual(expect.any(String));

    expect((await call(first, 'POST', '/__mock/reset')).status).toBe(200);
    // As many writes as before the reset, so that a version set back to the fixture's would climb to
    // the very value the cursor carries; only one of them matches the search.
    expect((await createInvoice(first, 'counted across a reset')).status).toBe(201);
    expect((await createInvoice(first, 'another description')).status).toBe(201);
    expect(await search({ limit: 1, cursor: firstPage.nextCursor })).toMatchObject({ total: 1 });
    await first.reset();
  });

  it('after a reset, totals by status (sums of the kept invoice counts) equal counts of the fixture invoices', async () => {
    const totalOf = async (criteria: unknown[]) =>
      ((await call(first, 'POST', '/api/v1/invoices/search', { limit: 1, criteria })).body.pagination as { total: number }).total;
    const byStatus = (status: string) => [{ field: 'status', operator: '=', value: status }];
    // amount >= 0 holds for every invoice and makes the search a counted one.
    const counted = (status: string) => totalOf([...byStatus(status), { field: 'amount', operator: '>=', value: 0 }]);
    const fixtureDraft = ((await call(first, 'POST', '/api/v1/invoices/search', { limit: 1, criteria: byStatus('draft') })).body.data as InvoiceView[])[0]!;
    const created = (await createInvoice(first, 'sent, then reset')).body.invoice as InvoiceView;
    for (const id of [fixtureDraft.id, created.id]) expect((await call(first, 'PATCH', `/api/v1/invoices/${id}`, { status: 'sent' })).status).toBe(200);
    expect((await call(first, 'POST', '/__mock/reset')).status).toBe(200);
    for (const status of ['draft', 'sent']) expect(await totalOf(byStatus(status)), status).toBe(await counted(status));
  });

  it('resets rate-limit counters and forgets idempotency keys', async () => {
    // otherSeed allows 3 standard calls a minute per API key.
    const headers = { 'X-Client': 'rate-limited' };
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await call(otherSeed, 'GET', '/api/v1/users', undefined, headers)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const key = { 'Idempotency-Key': 'mock-reset-key-1', 'X-Client': 'keyed' };
    expect((await createInvoice(otherSeed, 'first body', key)).status).toBe(201);
    expect((await createInvoice(otherSeed, 'another body', key)).body.error).toBe('idempotency_key_reused');

    expect((await call(otherSeed, 'POST', '/__mock/reset')).status).toBe(200);
    expect((await call(otherSeed, 'GET', '/api/v1/users', undefined, headers)).status).toBe(200);
    const reused = await createInvoice(otherSeed, 'another body', key);
    expect([reused.status, reused.headers.get('Idempotent-Replayed')]).toEqual([201, null]);
  });
});

describe('the same HTTP surface as the service, plus the reset route', () => {
  it('keeps /__mock/reset out of the published spec, answers 405 to other methods on it and 404 elsewhere', async () => {
    const spec = await (await fetch(new URL('/openapi.json', first.url))).json();
    expect(Object.keys((spec as { paths: Record<string, unknown> }).paths).some((path) => path.startsWith('/__mock'))).toBe(false);
    const get = await call(first, 'GET', '/__mock/reset');
    expect([get.status, get.headers.get('Allow'), get.body.error]).toEqual([405, 'POST', 'method_not_allowed']);
    const other = await call(first, 'POST', '/__mock/seed');
    expect([other.status, other.body.error]).toEqual([404, 'not_found']);
  });

  it('validates and refuses as the service does: no token is 401, a limit over 1000 is 400 naming limit', async () => {
    const anonymous = await call(first, 'POST', '/api/v1/invoices/search', {}, { Authorization: '' });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthorized']);
    const tooMany = await call(first, 'POST', '/api/v1/invoices/search', { limit: 1001 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: 'invalid_request', details: { field: 'limit' } });
  });

  it.each([
    ['http://localhost:5173', true],
    ['http://127.0.0.1:3000', true],
    ['http://[::1]:8080', true],
    ['http://localhost', true],
    ['https://app.example.com', false],
    ['http://localhost.example.com:5173', false],
    ['http://127.0.0.1.nip.io:5173', false],
  ])('CORS for origin %s: allowed %s (echoed, never *)', async (origin, allowed) => {
    const response = await fetch(new URL('/api/v1/invoices/search', first.url), {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    await response.body?.cancel();
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(allowed ? origin : null);
  });

  it('is the only place with the route and the local CORS: the service proper answers 404 and sends no CORS headers', async () => {
    const database = await openDatabase({ url: 'memory:', pgliteDataDirDump: await pgliteTemplate() });
    const service = await startTestService({ database });
    try {
      const reset = await fetch(new URL('/__mock/reset', service.url), { method: 'POST', headers: { Origin: 'http://localhost:5173' } });
      expect([reset.status, ((await reset.json()) as { error: string }).error]).toEqual([404, 'not_found']);
      expect(reset.headers.get('Access-Control-Allow-Origin')).toBeNull();
    } finally {
      await service.close();
      await database.close();
    }
  });
});
