// Two service processes on one PostgreSQL database and one Redis, under a load of clients that create
// invoices and deliveries and issue the deliveries, each logical write with its own Idempotency-Key,
// retried (same key, alternating instances) on network errors, 5xx, 429 and 409 idempotency_key_in_use.
// Midway one instance is killed with SIGKILL, and later every PostgreSQL connection is cut through a
// TCP proxy and restored. At the end the database is the judge: every acknowledged write is there
// exactly once, no key produced two resources, every acknowledged issue is issued (once), and a fresh
// API key's budget counts down across both instances (one Redis budget).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgres, urlFor, type TestPostgres } from './support/postgres.js';
import { startService, type ServiceProcess } from './support/service.js';
import { startTcpProxy, type TcpProxy } from './support/server-modules.js';
import { token } from './support/tokens.js';

const redisUrl = process.env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';
const clients = 8;
const jobsPerClient = 10;
/** Attempts per logical write before the test gives up on it (it then fails: nothing may stay unanswered). */
const maxAttempts = 60;
const attemptTimeoutMs = 15_000;

interface Counts {
  requests: number;
  acknowledged: number;
  retried: number;
  replayed: number;
  networkErrors: number;
  unavailable: number;
  inUse: number;
  unexpected: string[];
}

interface Outcome {
  status: number;
  body: Record<string, unknown>;
}

// Timeouts here are upper bounds that only end a hung run, not waits: two service processes start one after the
// other, and the test drives them under load with faults; a saturated two-core machine stretches both.
describe('two instances on one PostgreSQL and one Redis, one killed, connections cut', () => {
  let postgres: TestPostgres;
  let proxy: TcpProxy;
  const services: ServiceProcess[] = [];
  const env: Record<string, string> = {};

  beforeAll(async () => {
    postgres = await createTestPostgres('robust_two_instances');
    proxy = await startTcpProxy({ host: new URL(postgres.url).hostname, port: Number(new URL(postgres.url).port || 5432) });
    Object.assign(env, {
      DATABASE_URL: urlFor(postgres.name, proxy),
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: redisUrl,
      RATE_LIMIT_REDIS_PREFIX: `invoice-api-test:two-instances:${process.pid}:${randomUUID()}:`,
      SEED_DEMO_DATA: 'off',
    });
    // One after the other: the second finds the schema migrated.
    services.push(await startService(env));
    services.push(await startService(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await proxy?.close();
    await postgres?.drop();
  }, 60_000);

  it('loses no acknowledged write and duplicates none', async () => {
    const [contact] = await postgres.query<{ id: number }>('select id from company_clients where account_id = 1 order by id limit 1');
    const contactId = Number(contact!.id);
    const apiKey = `load-${randomUUID()}`;
    const bearer = await token({ accountId: 1, clientId: apiKey });
    const counts: Counts = { requests: 0, acknowledged: 0, retried: 0, replayed: 0, networkErrors: 0, unavailable: 0, inUse: 0, unexpected: [] };
    const alive = [true, true];
    const urls = services.map((service) => service.url);
    const totalWrites = clients * jobsPerClient * 3;

    // The faults, driven by progress (acknowledged writes), not by the clock.
    const progress: Array<{ at: number; run: () => void }> = [];
    const onAcknowledged = (): void => {
      counts.acknowledged += 1;
      for (const step of progress.filter((entry) => entry.at <= counts.acknowledged)) {
        progress.splice(progress.indexOf(step), 1);
        step.run();
      }
    };
    let killed: Promise<unknown> = Promise.resolve();
    let failuresWhileCut = 0;
    let cut = false;
    progress.push({
      at: Math.floor(totalWrites / 3),
      run: () => {
        alive[0] = false;
        services[0]!.child.kill('SIGKILL');
        killed = services[0]!.exited;
      },
    });
    progress.push({
      at: Math.floor(totalWrites / 2),
      run: () => {
        cut = true;
        proxy.cut();
      },
    });
    const noteFailure = (): void => {
      if (!cut) return;
      failuresWhileCut += 1;
      // Restored once the cut has been felt by a few requests: the load then carries on.
      if (failuresWhileCut >= 5) {
        cut = false;
        proxy.restore();
      }
    };

    /** One logical write: the same key on every attempt, alternating instances; answers its final outcome. */
    async function write(start: number, method: string, path: string, body: unknown): Promise<Outcome> {
      const key = randomUUID();
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        if (attempt > 0) counts.retried += 1;
        // Alternate, but a client knows an instance it saw die is gone (a load balancer's health check).
        let target = (start + attempt) % 2;
        if (!alive[target]) target = 1 - target;
        counts.requests += 1;
        let response: Response;
        try {
          response = await fetch(`${urls[target]}${path}`, {
            method,
            headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(attemptTimeoutMs),
          });
        } catch {
          counts.networkErrors += 1;
          noteFailure();
          await backoff(attempt);
          continue;
        }
        const text = await response.text();
        if (response.headers.get('idempotent-replayed') === 'true') counts.replayed += 1;
        if (response.status >= 200 && response.status < 300) {
          onAcknowledged();
          return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
        }
        const error = safeJson(text)['error'];
        if (response.status === 503 || response.status === 500 || response.status === 429 || error === 'idempotency_key_in_use') {
          if (response.status >= 500) {
            counts.unavailable += 1;
            noteFailure();
          } else counts.inUse += 1;
          if (response.status === 500) counts.unexpected.push(`500 on ${method} ${path}: ${text}`);
          await backoff(attempt);
          continue;
        }
        counts.unexpected.push(`${response.status} on ${method} ${path}: ${text}`);
        return { status: response.status, body: safeJson(text) };
      }
      counts.unexpected.push(`no answer after ${maxAttempts} attempts: ${method} ${path}`);
      return { status: 0, body: {} };
    }

    interface Job {
      description: string;
      invoice?: Outcome;
      deliveryDate: string;
      created?: Outcome;
      issueItem: number;
      issued?: Outcome;
    }
    const jobs: Job[] = [];
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let index = 0; index < jobsPerClient; index += 1) {
          const number = client * jobsPerClient + index;
          const job: Job = { description: `two-instances ${apiKey} ${number}`, deliveryDate: dateAfter('2090-01-01', number), issueItem: 9_000_000 + number };
          jobs.push(job);
          job.invoice = await write(client, 'POST', '/api/v1/invoices', {
            client_id: contactId,
            amount: 12.5,
            currency: 'CHF',
            due_date: '2026-12-31',
            description: job.description,
          });
          job.created = await write(client + 1, 'POST', '/2.0/delivery', {
            contact_id: contactId,
            delivery_date: job.deliveryDate,
            items: [{ item_id: 1, quantity: 1, unit_price: 1 }],
          });
          const deliveryId = (job.created.body['delivery'] as { id?: number } | undefined)?.id;
          if (deliveryId !== undefined) {
            job.issued = await write(client, 'POST', '/2.0/delivery/issue', {
              delivery_id: deliveryId,
              contact_id: contactId,
              items: [{ item_id: job.issueItem, quantity: 2, unit_price: 1.5 }],
            });
          }
        }
      }),
    );
    await killed;
    proxy.restore();

    // The database judges.
    let lost = 0;
    let duplicated = 0;
    for (const job of jobs) {
      const invoices = await postgres.query<{ id: string }>('select id from invoices where account_id = 1 and description = $1', [job.description]);
      if (job.invoice?.status === 201) {
        if (invoices.length === 0) lost += 1;
        const answered = (job.invoice.body['invoice'] as { id: number }).id;
        if (invoices.length === 1 && Number(invoices[0]!.id) !== answered) lost += 1;
      }
      duplicated += Math.max(0, invoices.length - 1);

      const deliveries = await postgres.query<{ id: string; status: string; version: number }>(
        'select id, status, version from deliveries where account_id = 1 and delivery_date = $1',
        [job.deliveryDate],
      );
      if (job.created?.status === 201 && deliveries.length === 0) lost += 1;
      duplicated += Math.max(0, deliveries.length - 1);
      if (job.issued?.status === 200) {
        const delivery = deliveries[0];
        const items =
          delivery === undefined ? [] : await postgres.query<{ item_id: string }>('select item_id from delivery_items where delivery_id = $1', [delivery.id]);
        // Issued, with this issue's items, and written once: created (version 1), issued (version 2).
        if (delivery?.status !== 'issued' || items.length !== 1 || Number(items[0]!.item_id) !== job.issueItem) lost += 1;
        if (delivery !== undefined && Number(delivery.version) !== 2) duplicated += 1;
      }
    }
    const stored = await postgres.query<{ n: string }>('select count(*) as n from idempotency_keys where api_key = $1', [apiKey]);

    // The shared budget: a fresh API key, alternating between a surviving and a restarted instance,
    // counts down one by one.
    const restarted = await startService(env);
    services.push(restarted);
    const probeBearer = await token({ accountId: 1, clientId: `probe-${randomUUID()}` });
    const remaining: number[] = [];
    for (const url of [services[1]!.url, restarted.url, services[1]!.url, restarted.url]) {
      const response = await fetch(`${url}/api/v1/users`, { headers: { authorization: `Bearer ${probeBearer}` } });
      expect(response.status).toBe(200);
      remaining.push(Number(/"per-minute"; r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]));
    }

    console.log(
      `two instances: requests=${counts.requests} acknowledged=${counts.acknowledged} retried=${counts.retried} replayed=${counts.replayed} ` +
        `network-errors=${counts.networkErrors} 5xx=${counts.unavailable} in-use-or-429=${counts.inUse} lost=${lost} duplicated=${duplicated} ` +
        `stored-keys=${stored[0]!.n} budget=${remaining.join(',')}`,
    );
    expect(counts.unexpected).toEqual([]);
    expect(counts.acknowledged).toBe(totalWrites);
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    // Every acknowledged write's answer is stored under its key, once.
    expect(Number(stored[0]!.n)).toBe(totalWrites);
    // The faults happened: requests failed and were retried, and some retries were answered from the store
    // or found their key still in use (a write whose answer was lost).
    expect(counts.networkErrors + counts.unavailable).toBeGreaterThan(0);
    expect(counts.retried).toBeGreaterThan(0);
    expect(remaining.map((value, index) => value - remaining[0]! + index)).toEqual([0, 0, 0, 0]);
  }, 300_000);
});

function safeJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A short pause before the next attempt, growing with the attempts (a real client's backoff). */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(20 * 2 ** Math.min(attempt, 5), 500)));
}

function dateAfter(start: string, days: number): string {
  const date = new Date(`${start}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
