// The stateful mock: the service itself (same app, same handlers, same validation and errors) on a
// PGlite database in memory, filled with a deterministic fixture, with every local origin allowed by
// CORS and one extra route, `POST /__mock/reset`, that brings the fixture back. In memory nothing is
// shared with another process, so no data-directory lock is taken and any number of mocks can run.
// Every body the service carries (JSON, text, bytes, multipart uploads, a 204) passes through as the
// service reads and writes it: the mock's own steps (mock-routes.ts, request-gate.ts) never read a
// body. `api` serves another contract with its handlers (the tests' fixture spec of shapes).
import { MemoryStore } from 'express-rate-limit';
import type { Logger } from 'pino';
import { createApp, type ServedApi } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { countRows, demoDeliveries, demoInvoices, demoSeed, seedIfEmpty, type SeedOptions } from '../db/seed.js';
import { createHandlers } from '../operations/index.js';
import { startServer } from '../runtime/server.js';
import { takeFixture } from './fixture.js';
import { localOrigins } from './local-origins.js';
import { mockRoutes, type ResetOutcome } from './mock-routes.js';
import { requestGate } from './request-gate.js';

export type FixtureOptions = Required<SeedOptions>;

export const defaultFixture: FixtureOptions = { seed: demoSeed, invoices: demoInvoices, deliveries: demoDeliveries };

export interface StatefulMockOptions {
  /** The service's settings (loadConfig); the mock keeps HOST, PORT, tokens, rate limits, logs and timeouts. */
  config: Config;
  logger: Logger;
  fixture?: Partial<FixtureOptions>;
  /** Start PGlite from this dump of a fresh cluster instead of running initdb (tests). */
  pgliteDataDirDump?: Blob;
  /** Compile every validator before listening (default on, as in the service); tests may skip it. */
  warmUp?: boolean;
  /** The contract served and its handlers; default: the product's, with the service's handlers. */
  api?: ServedApi;
}

export interface RunningStatefulMock {
  url: string;
  fixture: FixtureOptions;
  /** Row counts of the fixture (what every reset brings back). */
  rows: Awaited<ReturnType<typeof countRows>>;
  /** What `POST /__mock/reset` does. */
  reset(): Promise<ResetOutcome>;
  stop(): Promise<void>;
}

/** The mock's settings: the service's, with its database, CORS and rate-limit store fixed. */
export function mockConfig(config: Config): Config {
  if (config.production) throw new Error('The stateful mock is a development tool: it does not run with NODE_ENV=production.');
  return {
    ...config,
    database: { ...config.database, url: 'memory:' },
    seedDemoData: false,
    corsOrigins: [],
    rateLimit: { ...config.rateLimit, redisUrl: undefined },
    metrics: undefined,
  };
}

export async function startStatefulMock(options: StatefulMockOptions): Promise<RunningStatefulMock> {
  const config = mockConfig(options.config);
  const fixture: FixtureOptions = { ...defaultFixture, ...options.fixture };
  const database = await openDatabase({ url: 'memory:', ...(options.pgliteDataDirDump === undefined ? {} : { pgliteDataDirDump: options.pgliteDataDirDump }) });
  try {
    await migrate(database);
    await seedIfEmpty(database, fixture);
    const rows = await countRows(database);
    const kept = await takeFixture(database);

    // Rate-limit counters live in these stores; a reset empties them along with the database.
    const stores: MemoryStore[] = [];
    const gate = requestGate();
    const reset = (): Promise<ResetOutcome> =>
      gate.exclusive(async () => {
        const started = performance.now();
        const rowsRestored = await kept.restore();
        await Promise.all(stores.map((store) => store.resetAll()));
        return { rowsRestored, tookMs: Math.round(performance.now() - started) };
      });

    const app = await createApp({
      config,
      database,
      ...(options.api ?? { handlers: createHandlers() }),
      logger: options.logger,
      warmUp: options.warmUp ?? true,
      rateLimitStore: () => {
        const store = new MemoryStore();
        stores.push(store);
        return store;
      },
      corsOrigins: localOrigins,
      beforeApi: mockRoutes(gate, reset),
    });
    const server = await startServer(app, config);
    options.logger.info({ url: server.url, fixture, invoices: rows.invoices, deliveries: rows.deliveries }, 'listening');
    let stopped: Promise<void> | undefined;
    return {
      url: server.url,
      fixture,
      rows,
      reset,
      stop() {
        stopped ??= server.close(config.timeouts.shutdownMs).then(() => database.close());
        return stopped;
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
