// Rate limits through real HTTP: per API key, the two search policies and the default one, the draft-8
// headers, 429 with Retry-After; counters in memory and in the real Redis on loopback, shared by two
// app instances; and the fail-open behaviour when Redis goes away (through a TCP proxy the test cuts).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStores } from '../../src/http/rate-limit.js';
import { closeRedis, createRedisClient, waitUntilReady } from '../../src/runtime/redis.js';
import { useTestDatabase } from '../support/databases.js';
import { startTcpProxy, targetOf, type TcpProxy } from '../support/tcp-proxy.js';
import { capturingLogger, startTestService, token, type TestService } from './support/service.js';

const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const smallLimits = { RATE_LIMIT_SEARCH_PER_MINUTE: '3', RATE_LIMIT_SEARCH_PER_HOUR: '5', RATE_LIMIT_PER_MINUTE: '4' };

const search = (url: string, bearer: string) =>
  fetch(`${url}/api/v1/invoices/search`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: '{}' });
const users = (url: string, bearer: string) => fetch(`${url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });

/** The messages of the warnings and errors a capturing logger received (pino level 40 and up). */
const warningsIn = (lines: Array<Record<string, unknown>>) => lines.filter((line) => Number(line.level) >= 40).map((line) => line.msg);

/** A unique key prefix per test, so that runs (and tests) never share counters. */
const runPrefix = `invoice-api-test:${process.pid}:${randomUUID()}:`;
const uniquePrefix = () => `${runPrefix}${randomUUID()}:`;

describe('rate limits in memory', () => {
  const database = useTestDatabase('postgres', { name: 'http_rate_memory' });
  const { logger, lines } = capturingLogger();
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ database: database(), env: smallLimits, logger });
  });
  afterAll(() => service?.close());

  it('sends both search policies in draft-8 form, counting down', async () => {
    const bearer = await token({ clientId: `search-${randomUUID()}` });
    const first = await search(service.url, bearer);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"per-minute"; q=3; w=60; pk=:[^:]+:, "per-hour"; q=5; w=3600; pk=:[^:]+:$/);
    expect(first.headers.get('ratelimit')).toMatch(/^"per-minute"; r=2; t=\d+, "per-hour"; r=4; t=\d+$/);
    const second = await search(service.url, bearer);
    expect(second.headers.get('ratelimit')).toMatch(/^"per-minute"; r=1; t=\d+, "per-hour"; r=3; t=\d+$/);
    expect(warningsIn(lines())).toEqual([]);
  });

  it('answers 429 rate_limited with Retry-After once the minute budget is spent', async () => {
    const bearer = await token({ clientId: `search-${randomUUID()}` });
    for (let index = 0; index < 3; index += 1) expect((await search(service.url, bearer)).status).toBe(200);
    const limited = await search(service.url, bearer);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit')).toMatch(/"per-minute"; r=0;/);
    expect(await limited.json()).toEqual({
      error: 'rate_limited',
      message: `Rate limit exceeded: 3 requests per minute for this API key. Retry after ${retryAfter} seconds.`,
    });
  });

  it('counts per API key: another key still has its budget', async () => {
    const spent = await token({ clientId: `spent-${randomUUID()}` });
    for (let index = 0; index < 4; index += 1) await search(service.url, spent);
    expect((await search(service.url, spent)).status).toBe(429);
    expect((await search(service.url, await token({ clientId: `fresh-${randomUUID()}` }))).status).toBe(200);
  });

  it('gives other operations their own budget of the default policy', async () => {
    const bearer = await token({ clientId: `mixed-${randomUUID()}` });
    for (let index = 0; index < 4; index += 1) await search(service.url, bearer);
    const response = await users(service.url, bearer);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"per-minute"; q=4; w=60;/);
    for (let index = 0; index < 3; index += 1) await users(service.url, bearer);
    expect((await users(service.url, bearer)).status).toBe(429);
  });

  it('checks the rate limit before the scope', async () => {
    const clientId = `scope-${randomUUID()}`;
    const noScope = await token({ clientId, scopes: [] });
    for (let index = 0; index < 4; index += 1) expect((await users(service.url, noScope)).status).toBe(403);
    expect((await users(service.url, noScope)).status).toBe(429);
  });

  it('counts nothing for requests rejected with 401', async () => {
    const clientId = `unauthenticated-${randomUUID()}`;
    const expired = await token({ clientId, ttlSeconds: -120 });
    for (let index = 0; index < 6; index += 1) expect((await search(service.url, expired)).status).toBe(401);
    const response = await search(service.url, await token({ clientId }));
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toMatch(/^"per-minute"; r=2;/);
  });

  it('does not limit the health check, the spec or the docs', async () => {
    for (let index = 0; index < 6; index += 1) {
      for (const path of ['/healthz', '/openapi.json', '/docs']) {
        const response = await fetch(`${service.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('ratelimit'), path).toBeNull();
        await response.arrayBuffer();
      }
    }
  });
});

describe('rate limits in Redis', () => {
  const database = useTestDatabase('postgres', { name: 'http_rate_redis' });
  const clients: Redis[] = [];
  const services: TestService[] = [];
  let proxy: TcpProxy;

  const redisClient = async (url: string): Promise<Redis> => {
    const client = createRedisClient(url, capturingLogger().logger);
    clients.push(client);
    await waitUntilReady(client, 5_000);
    return client;
  };
  const serviceOn = async (client: Redis, prefix: string, logger = capturingLogger().logger): Promise<TestService> => {
    const service = await startTestService({ database: database(), env: smallLimits, rateLimitStore: redisStores(client, prefix), logger });
    services.push(service);
    return service;
  };

  beforeAll(async () => {
    proxy = await startTcpProxy(targetOf(redisUrl, 6379));
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    // The counters expire by themselves; removing them keeps the shared Redis tidy.
    const cleaner = await redisClient(redisUrl);
    const keys = await cleaner.keys(`${runPrefix}*`);
    if (keys.length > 0) await cleaner.del(...keys);
    await Promise.all(clients.map((client) => closeRedis(client)));
    await proxy?.close();
  });

  it('shares one budget between two app instances', async () => {
    const prefix = uniquePrefix();
    const first = await serviceOn(await redisClient(redisUrl), prefix);
    const second = await serviceOn(await redisClient(redisUrl), prefix);
    const bearer = await token({ clientId: `shared-${randomUUID()}` });

    expect((await search(first.url, bearer)).status).toBe(200);
    expect((await search(second.url, bearer)).status).toBe(200);
    const third = await search(first.url, bearer);
    expect(third.status).toBe(200);
    expect(third.headers.get('ratelimit')).toMatch(/^"per-minute"; r=0;/);
    const limited = await search(second.url, bearer);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('enforces the per-hour search budget beside the per-minute one, without a double-count warning', async () => {
    const { logger, lines } = capturingLogger();
    const client = await redisClient(redisUrl);
    const service = await startTestService({
      database: database(),
      env: { ...smallLimits, RATE_LIMIT_SEARCH_PER_MINUTE: '100', RATE_LIMIT_SEARCH_PER_HOUR: '2' },
      rateLimitStore: redisStores(client, uniquePrefix()),
      logger,
    });
    services.push(service);
    const bearer = await token({ clientId: `hourly-${randomUUID()}` });

    for (let index = 0; index < 2; index += 1) expect((await search(service.url, bearer)).status).toBe(200);
    const limited = await search(service.url, bearer);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit')).toMatch(/^"per-minute"; r=97; t=\d+, "per-hour"; r=0; t=\d+$/);
    expect(((await limited.json()) as { message: string }).message).toMatch(/^Rate limit exceeded: 2 requests per hour /);
    // Two policies of one operation count the same API key in two stores; neither may be mistaken for
    // counting one request twice, nor be reported as a failed store.
    expect(warningsIn(lines())).toEqual([]);
  });

  it('keeps separate budgets under separate key prefixes', async () => {
    const client = await redisClient(redisUrl);
    const one = await serviceOn(client, uniquePrefix());
    const other = await serviceOn(client, uniquePrefix());
    const bearer = await token({ clientId: 'same-key-different-prefix' });
    for (let index = 0; index < 3; index += 1) expect((await search(one.url, bearer)).status).toBe(200);
    expect((await search(one.url, bearer)).status).toBe(429);
    expect((await search(other.url, bearer)).status).toBe(200);
  });

  it('fails open while Redis is unreachable, logs it, and limits again once it is back', async () => {
    const { logger, lines } = capturingLogger();
    const client = createRedisClient(`redis://127.0.0.1:${proxy.port}`, logger);
    clients.push(client);
    expect(await waitUntilReady(client, 5_000)).toBe(true);
    const service = await serviceOn(client, uniquePrefix(), logger);
    const bearer = await token({ clientId: `outage-${randomUUID()}` });

    expect((await search(service.url, bearer)).headers.get('ratelimit')).toMatch(/r=2;/);

    proxy.cut();
    try {
      // More requests than the budget: all served, without RateLimit headers, each answered promptly.
      for (let index = 0; index < 5; index += 1) {
        const started = Date.now();
        const response = await search(service.url, bearer);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toBeNull();
        expect(Date.now() - started).toBeLessThan(2_000);
      }
      expect(lines().some((line) => line.level === 40 && /Redis is unreachable|rate limit store failed/.test(String(line.msg)))).toBe(true);
    } finally {
      proxy.restore();
    }

    // Back: the counter (still 1 in Redis) is used again; poll while the client reconnects.
    const deadline = Date.now() + 10_000;
    let header: string | null = null;
    while (Date.now() < deadline && header === null) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      header = (await search(service.url, bearer)).headers.get('ratelimit');
    }
    expect(header).toMatch(/^"per-minute"; r=\d;/);
    let status = 200;
    for (let index = 0; index < 3 && status === 200; index += 1) status = (await search(service.url, bearer)).status;
    expect(status).toBe(429);
  });

  it('recovers when Redis was unreachable at start (scripts loaded later)', async () => {
    proxy.cut();
    const { logger } = capturingLogger();
    const client = createRedisClient(`redis://127.0.0.1:${proxy.port}`, logger);
    clients.push(client);
    let service: TestService;
    try {
      expect(await waitUntilReady(client, 300)).toBe(false);
      service = await serviceOn(client, uniquePrefix(), logger);
      const bearer = await token({ clientId: `late-${randomUUID()}` });
      expect((await search(service.url, bearer)).status).toBe(200);
    } finally {
      proxy.restore();
    }
    expect(await waitUntilReady(client, 10_000)).toBe(true);
    const bearer = await token({ clientId: `late-after-${randomUUID()}` });
    const deadline = Date.now() + 10_000;
    let header: string | null = null;
    while (Date.now() < deadline && header === null) {
      header = (await search(service.url, bearer)).headers.get('ratelimit');
      if (header === null) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(header).toMatch(/^"per-minute"; r=\d;/);
  });
});
