// Deletes expired idempotency keys off the request path: a keyed request pokes the purger, which
// starts a run at most once per interval and does not wait for it; each run deletes in small
// batches, so it never holds the database (PGlite's single connection included) for long. Lookups
// ignore expired keys anyway: the purge only keeps the table small.
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { purgeExpiredKeys } from './store.js';

export interface PurgeOptions {
  /** Least time between two runs. */
  intervalMs?: number;
  /** Rows per DELETE. */
  batchSize?: number;
  /** DELETEs per run at most; what is left waits for the next run. */
  maxBatches?: number;
}

export interface ExpiredKeyPurger {
  /** Starts a run in the background unless one ran within the interval or is still running. */
  poke(): void;
  /** Resolves when the current run (if any) has ended; for tests and shutdown. */
  idle(): Promise<void>;
}

export function expiredKeyPurger(database: Database, logger: Logger, options: PurgeOptions = {}): ExpiredKeyPurger {
  const intervalMs = options.intervalMs ?? 60_000;
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 20;
  let lastStart = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    try {
      for (let batch = 0; batch < maxBatches; batch += 1) {
        const deleted = await purgeExpiredKeys(database.db, batchSize);
        if (deleted < batchSize) return;
        // Let queued requests have the database between two batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      logger.warn({ err: error }, 'purging expired idempotency keys failed; the next run retries');
    }
  }

  return {
    poke() {
      const now = performance.now();
      if (running !== undefined || now - lastStart < intervalMs) return;
      lastStart = now;
      running = run().finally(() => {
        running = undefined;
      });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
