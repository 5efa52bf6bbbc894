// Faults: PostgreSQL cut under load (through a TCP proxy; the shared server is never touched) and
// Redis cut while it holds the rate-limit counters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgres, urlFor, type TestPostgres } from './support/postgres.js';
import { startService, type ServiceProcess } from './support/service.js';
import { startTcpProxy, type TcpProxy } from './support/server-modules.js';
import { call, type Answer } from './support/http.js';
import { token } from './support/tokens.js';

type Body = Record<string, unknown>;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Each request's bound: an outage must be answered, not waited out. */
const requestBoundMs = 6_000;

async function until(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await sleep(200);
  }
  throw new Error(`condition not met within ${limitMs} ms`);
}

describe('PostgreSQL cut under load', () => {
  let postgres: TestPostgres;
  let proxy: TcpProxy;
  let service: ServiceProcess;

  beforeAll(async () => {
    postgres = await createTestPostgres('robust_faults');
    const admin = new URL(urlFor(postgres.name));
    proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    service = await startService({ DATABASE_URL: urlFor(postgres.name, proxy) });
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await postgres?.drop();
  });

  it('answers 503 service_unavailable with Retry-After quickly, reports it on /healthz, recovers by itself, and loses no acknowledged issue', async () => {
    const bearer = await token();
    const [client] = await postgres.query<{ id: string }>('select min(id) as id from company_clients where account_id = 1');
    const contactId = Number(client?.id);
    // Drafts to issue throughout the run, one per request: enough that the workers are still issuing
    // when the connection is cut and after it is restored, however fast the service answers (four
    // workers pausing 20 ms between requests issue at most 200 a second).
    const drafts: number[] = [];
    const createDraft = async (): Promise<void> => {
      const draft = await call(service.url, 'POST', '/2.0/delivery', { token: bearer, body: { contact_id: contactId } });
      drafts.push(((draft.body as Body)['delivery'] as Body)['id'] as number);
    };
    for (let batch = 0; batch < 60; batch += 1) await Promise.all(Array.from({ length: 10 }, createDraft));
    const acknowledged = new Map<number, Body>();
    const outcomes: Array<{ status: number | 'timeout'; ms: number; retryAfter: string | null; error: unknown }> = [];
    let running = true;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (running && next < drafts.length) {
        const deliveryId = drafts[next++]!;
        const begin = Date.now();
        let answer: Answer;
        try {
          answer = await call(service.url, 'POST', '/2.0/delivery/issue', {
            token: bearer,
            body: { delivery_id: deliveryId, contact_id: contactId, items: [{ item_id: deliveryId, quantity: 2, unit_price: 3.5 }] },
            timeoutMs: requestBoundMs,
          });
        } catch {
          outcomes.push({ status: 'timeout', ms: Date.now() - begin, retryAfter: null, error: undefined });
          continue;
        }
        outcomes.push({
          status: answer.status,
          ms: Date.now() - begin,
          retryAfter: answer.headers.get('retry-after'),
          error: (answer.body as Body | undefined)?.['error'],
        });
        if (answer.status === 200) acknowledged.set(deliveryId, answer.body as Body);
        await sleep(20);
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    await sleep(800);
    // Should the service die during the outage, the failure shows why.
    void service.exited.then((code) => running && console.error(`service exited (${code}) during the test:\n${service.logs().slice(-20).join('\n')}`));
    expect(next, 'drafts left to issue when the connection is cut').toBeLessThan(drafts.length);
    proxy.cut();
    const cutAt = outcomes.length;
    await sleep(2_500);
    const health = await call(service.url, 'GET', '/healthz', { timeoutMs: requestBoundMs });
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable' });
    const duringOutage = outcomes.slice(cutAt);
    proxy.restore();
    const recoveredAfterMs = await until(async () => (await call(service.url, 'GET', '/healthz', { timeoutMs: requestBoundMs })).status === 200, 15_000);
    await sleep(1_000);
    running = false;
    await Promise.all(workers);

    expect(outcomes.filter((outcome) => outcome.status === 'timeout')).toEqual([]);
    expect(outcomes.filter((outcome) => typeof outcome.status === 'number' && outcome.status >= 500 && outcome.status !== 503)).toEqual([]);
    const unavailable = duringOutage.filter((outcome) => outcome.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const outcome of unavailable) {
      expect(outcome.error).toBe('service_unavailable');
      expect(outcome.retryAfter).toMatch(/^\d+$/);
      expect(outcome.ms).toBeLessThan(requestBoundMs);
    }
    expect(recoveredAfterMs).toBeLessThan(15_000);
    // The outage's 503s are logged as one warning line each (request id, reason), never an error with a stack.
    const outageLines = service
      .logs()
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Body)
      .filter((line) => (line['res'] as Body | undefined)?.['status'] === 503);
    expect(outageLines.length).toBeGreaterThan(0);
    for (const line of outageLines) {
      expect(line['level'], JSON.stringify(line)).toBe(40);
      expect(line['requestId']).toEqual(expect.any(String));
      expect(line).not.toHaveProperty('err');
      expect(JSON.stringify(line)).not.toMatch(/\n\s+at /);
    }
    const after = await call(service.url, 'POST', '/api/v1/invoices/search', { token: bearer, body: {} });
    expect(after.status).toBe(200);

    // Every issue the service acknowledged is stored, issued, with the acknowledged items and total.
    expect(acknowledged.size).toBeGreaterThan(0);
    for (const [deliveryId, delivery] of acknowledged) {
      const [stored] = await postgres.query<{ status: string; total_amount: string; items: string }>(
        'select status, total_amount::text, (select count(*) from delivery_items i where i.delivery_id = d.id) as items from deliveries d where id = $1',
        [deliveryId],
      );
      expect(stored?.status).toBe('issued');
      expect(Number(stored?.total_amount)).toBe(delivery['total_amount']);
      expect(Number(stored?.items)).toBe((delivery['items'] as unknown[]).length);
    }
  });
});

describe('Redis cut while it holds the rate-limit counters', () => {
  let postgres: TestPostgres;
  let proxy: TcpProxy;
  let service: ServiceProcess;
  const searchPerMinute = 5;

  beforeAll(async () => {
    postgres = await createTestPostgres('robust_redis');
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    service = await startService({
      DATABASE_URL: postgres.url,
      REDIS_URL: `redis://${proxy.host}:${proxy.port}`,
      RATE_LIMIT_REDIS_PREFIX: `robustness-${process.pid}-${Date.now()}:`,
      RATE_LIMIT_SEARCH_PER_MINUTE: String(searchPerMinute),
    });
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await postgres?.drop();
  });

  it('fails open: searches are served (and not limited) while Redis is away, and limits apply again once it is back', async () => {
    // A key of its own per phase, so each phase starts with a fresh budget.
    const search = async (bearer: string): Promise<Answer> =>
      call(service.url, 'POST', '/api/v1/invoices/search', { token: bearer, body: { limit: 1 }, timeoutMs: requestBoundMs });
    const before = await token({ clientId: `before-${Date.now()}` });
    const statusesBefore: number[] = [];
    for (let n = 0; n < searchPerMinute + 2; n += 1) statusesBefore.push((await search(before)).status);
    expect(statusesBefore.slice(0, searchPerMinute)).toEqual(Array(searchPerMinute).fill(200));
    expect(statusesBefore.at(-1)).toBe(429);

    proxy.cut();
    const during = await token({ clientId: `during-${Date.now()}` });
    const statusesDuring: number[] = [];
    for (let n = 0; n < searchPerMinute + 3; n += 1) {
      const begin = Date.now();
      const answer = await search(during);
      statusesDuring.push(answer.status);
      expect(Date.now() - begin).toBeLessThan(requestBoundMs);
    }
    expect(statusesDuring).toEqual(Array(searchPerMinute + 3).fill(200));

    proxy.restore();
    const afterKey = await token({ clientId: `after-${Date.now()}` });
    await until(async () => {
      const statuses: number[] = [];
      for (let n = 0; n < searchPerMinute + 1; n += 1) statuses.push((await search(afterKey)).status);
      return statuses.includes(429);
    }, 15_000);
  });
});
