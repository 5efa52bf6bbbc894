// The Prometheus metrics through real HTTP on PostgreSQL: known traffic, then a scrape of the metrics
// listener whose counts per operationId and status are exactly that traffic; a 429 counted by its
// rate-limit group; nothing left in flight; the pool gauges and process metrics present; `/metrics`
// absent from the API's port; and a database outage's 503 counted.
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createHandlers } from '../../src/operations/index.js';
import { droppedLogLines } from '../../src/runtime/logger.js';
import { createMetrics } from '../../src/runtime/metrics.js';
import { startMetricsServer, type RunningMetricsServer } from '../../src/runtime/metrics-server.js';
import { startServer, type RunningServer } from '../../src/runtime/server.js';
import { useTestDatabase } from '../support/databases.js';
import { testKeyFile, token } from './support/service.js';

interface Instance {
  api: RunningServer;
  metrics: RunningMetricsServer;
  close(): Promise<void>;
}

async function startInstance(database: Database, env: Record<string, string> = {}): Promise<Instance> {
  const config = loadConfig({ PORT: '0', METRICS_PORT: '0', DEV_KEY_FILE: testKeyFile, LOG_LEVEL: 'silent', ...env });
  const metrics = createMetrics(database);
  const app = await createApp({ config, database, handlers: createHandlers(), logger: pino({ level: 'silent' }), warmUp: false, metrics });
  const metricsServer = await startMetricsServer(metrics.registry, config.metrics ?? { host: '127.0.0.1', port: 0 });
  const api = await startServer(app, config);
  return {
    api,
    metrics: metricsServer,
    close: async () => {
      await api.close(1_000);
      await metricsServer.close();
    },
  };
}

/** `name{labels} value` lines of the exposition format, keyed by everything before the value. */
async function scrape(url: string): Promise<Map<string, number>> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const split = line.lastIndexOf(' ');
    samples.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return samples;
}

const requests = (operationId: string, status: string) => `http_requests_total{operation_id="${operationId}",status="${status}"}`;
const durations = (operationId: string, status: string) => `http_request_duration_seconds_count{operation_id="${operationId}",status="${status}"}`;

describe('metrics', () => {
  const database = useTestDatabase('postgres', { name: 'http_metrics', poolSize: 3 });
  let instance: Instance;

  beforeAll(async () => {
    instance = await startInstance(database(), { RATE_LIMIT_PER_MINUTE: '2', DATABASE_POOL_SIZE: '3' });
  });
  afterAll(() => instance?.close());

  it('counts the traffic sent, by operationId and status, with a 429 by group, and nothing left in flight', async () => {
    const { url } = instance.api;
    const bearer = await token({ clientId: `metrics-${randomUUID()}` });
    const users = () => fetch(`${url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });
    for (let index = 0; index < 2; index += 1) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/users`)).status).toBe(401);
    expect((await users()).status).toBe(200);
    expect((await users()).status).toBe(200);
    expect((await users()).status).toBe(429);
    expect((await fetch(`${url}/no/such/path`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`, { method: 'DELETE' })).status).toBe(405);
    // Never on the API's port: there it is an unknown path like any other.
    const onApiPort = await fetch(`${url}/metrics`);
    expect(onApiPort.status).toBe(404);
    expect(((await onApiPort.json()) as { error: string }).error).toBe('not_found');

    const samples = await scrape(instance.metrics.url);
    const counted = [...samples].filter(([key]) => key.startsWith('http_requests_total{'));
    expect(Object.fromEntries(counted)).toEqual({
      [requests('getHealth', '200')]: 2,
      [requests('listUsers', '401')]: 1,
      [requests('listUsers', '200')]: 2,
      [requests('listUsers', '429')]: 1,
      // The unknown path, the 405 and /metrics on the API port: none names an operation.
      [requests('unmatched', '404')]: 2,
      [requests('unmatched', '405')]: 1,
    });
    expect(samples.get(durations('listUsers', '200'))).toBe(2);
    expect(samples.get(durations('getHealth', '200'))).toBe(2);
    expect(samples.get('rate_limit_refusals_total{group="standard"}')).toBe(1);
    // Shown from the start, before any 429 of that group.
    expect(samples.get('rate_limit_refusals_total{group="search"}')).toBe(0);
    expect(samples.get('http_requests_in_flight')).toBe(0);
    expect(samples.get('database_unavailable_total')).toBe(0);
    // The count of logger.ts, which logger-bound.test.ts drives in a process of its own.
    expect(samples.get('log_lines_dropped_total')).toBe(droppedLogLines());
  });

  it('shows the PostgreSQL pool and the process', async () => {
    const samples = await scrape(instance.metrics.url);
    expect(samples.get('database_pool_max_connections{engine="postgres"}')).toBe(3);
    const idle = samples.get('database_pool_connections{engine="postgres",state="idle"}') ?? -1;
    const inUse = samples.get('database_pool_connections{engine="postgres",state="in_use"}') ?? -1;
    // The requests above opened at least one connection, and none is in use between requests.
    expect(idle).toBeGreaterThanOrEqual(1);
    expect(idle).toBeLessThanOrEqual(3);
    expect(inUse).toBe(0);
    expect(samples.get('database_pool_waiting{engine="postgres"}')).toBe(0);
    expect(samples.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('serves only /metrics on its listener', async () => {
    const base = instance.metrics.url.replace(/\/metrics$/, '');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/users`)).status).toBe(404);
    expect((await fetch(instance.metrics.url, { method: 'POST' })).status).toBe(405);
  });
});

describe('metrics of a database outage', () => {
  let closedPort: number;
  let database: Database;
  let instance: Instance;

  beforeAll(async () => {
    // A port nothing listens on: every connection attempt is refused at once.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    database = await openDatabase({ url: `postgres://postgres@127.0.0.1:${closedPort}/none`, poolSize: 2 });
    instance = await startInstance(database);
  });
  afterAll(async () => {
    await instance?.close();
    await database?.close();
  });

  it('counts each 503 of an unreachable database', async () => {
    const bearer = await token({ clientId: `outage-${randomUUID()}` });
    for (let index = 0; index < 2; index += 1) {
      expect((await fetch(`${instance.api.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(503);
    }
    const samples = await scrape(instance.metrics.url);
    expect(samples.get('database_unavailable_total')).toBe(2);
    expect(samples.get(requests('listUsers', '503'))).toBe(2);
    expect(samples.get('database_pool_connections{engine="postgres",state="idle"}')).toBe(0);
  });
});
