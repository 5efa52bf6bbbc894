// The service's start and stop: open and migrate the database (seeding an empty one with the demo
// data), connect Redis when configured, serve the metrics on their own port when configured, listen;
// `stop` closes all of it gracefully. main.ts runs it as the process; callers that run the service
// in-process (contract tests) call `startService` themselves.
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { realpath } from 'node:fs/promises';
import type { Config } from './config.js';
import { defaultPgliteDataDir, openDatabase } from './db/database.js';
import { findIncompleteCopy, incompleteCopyMessage } from './db/copy-marker.js';
import { startBackupSocket, type BackupSocket } from './ops/backup-socket.js';
import { migrate } from './db/migrate.js';
import { seedIfEmpty } from './db/seed.js';
import { createLogger, flushLogs } from './runtime/logger.js';
import { redisStores } from './http/rate-limit.js';
import { docsPath } from './http/security-headers.js';
import { specPath } from './http/outside-api.js';
import { createMetrics } from './runtime/metrics.js';
import { startMetricsServer, type RunningMetricsServer } from './runtime/metrics-server.js';
import { closeRedis, createRedisClient, waitUntilReady } from './runtime/redis.js';
import { startServer } from './runtime/server.js';
import { createHandlers } from './operations/index.js';
import { invoiceFont } from './documents/invoice-pdf.js';
import { flushTraces } from './telemetry/spans.js';

/** How long the start waits for Redis before serving with fail-open rate limits. */
const redisStartupWaitMs = 3_000;

export interface RunningService {
  /** `http://host:port` actually listened on. */
  url: string;
  /** `http://host:port/metrics` when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  /** Graceful stop: requests in flight finish (within the configured grace period), then everything closes. */
  stop(): Promise<void>;
}

export async function startService(config: Config, logger: Logger = createLogger(config.logLevel, config.logFormat)): Promise<RunningService> {
  const database = await openDatabase({
    url: config.database.url,
    poolSize: config.database.poolSize,
    preparedStatements: config.database.preparedStatements,
    dataDir: config.database.pgliteDataDir,
  });
  let redis: ReturnType<typeof createRedisClient> | undefined;
  let metricsServer: RunningMetricsServer | undefined;
  let backupSocket: BackupSocket | undefined;
  try {
    // A database that db:copy began to fill and never finished lacks rows: serving it would lose data.
    const incompleteCopy = await findIncompleteCopy(database.db);
    if (incompleteCopy !== undefined) throw new Error(incompleteCopyMessage(incompleteCopy));
    await migrate(database);
    if (config.seedDemoData && (await seedIfEmpty(database))) logger.info('empty database seeded with the demo data');

    if (config.rateLimit.redisUrl !== undefined) {
      redis = createRedisClient(config.rateLimit.redisUrl, logger);
      if (!(await waitUntilReady(redis, redisStartupWaitMs))) logger.warn('Redis not ready at start: serving without rate limits until it is');
    }
    const metrics = config.metrics === undefined ? undefined : createMetrics(database);
    // The PDF font is parsed once per process: before listening, not in the first caller's request.
    invoiceFont();
    const app = await createApp({
      config,
      database,
      handlers: createHandlers(),
      logger,
      ...(redis === undefined ? {} : { rateLimitStore: redisStores(redis, config.rateLimit.redisKeyPrefix) }),
      ...(metrics === undefined ? {} : { metrics }),
    });
    // Before the API listens: a metrics port in use stops the start with nothing serving.
    if (metrics !== undefined && config.metrics !== undefined) metricsServer = await startMetricsServer(metrics.registry, config.metrics);
    if (database.engine === 'pglite' && config.database.url === undefined) {
      backupSocket = await startBackupSocket(await realpath(config.database.pgliteDataDir ?? defaultPgliteDataDir), database, logger);
    }
    const server = await startServer(app, config);
    logger.info(
      {
        url: server.url,
        docs: `${server.url}${docsPath}`,
        openapi: `${server.url}${specPath}`,
        ...(metricsServer === undefined ? {} : { metrics: metricsServer.url }),
        database: database.engine,
        rateLimits: redis === undefined ? 'memory' : 'redis',
      },
      'listening',
    );
    // Whoever started the process may be waiting for that line: out of the log buffer at once.
    flushLogs(logger);

    let stopped: Promise<void> | undefined;
    const runningMetrics = metricsServer;
    const runningBackupSocket = backupSocket;
    return {
      url: server.url,
      metricsUrl: runningMetrics?.url,
      stop() {
        stopped ??= (async () => {
          await server.close(config.timeouts.shutdownMs);
          // The last requests' spans, before the process exits with them still in the batch.
          await flushTraces();
          await runningMetrics?.close();
          await runningBackupSocket?.close();
          await database.close();
          if (redis !== undefined) await closeRedis(redis);
        })();
        return stopped;
      },
    };
  } catch (error) {
    await metricsServer?.close();
    await backupSocket?.close();
    await database.close();
    if (redis !== undefined) await closeRedis(redis);
    throw error;
  }
}
