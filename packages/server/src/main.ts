// The process: read the configuration, open and migrate the database (seeding an empty one with the
// demo data), connect Redis when configured, serve the metrics on their own port when configured,
// listen, and shut down gracefully on SIGTERM/SIGINT. A start that fails says why in one line.
// `startService` is the same sequence for callers that run the service in-process (contract tests).
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirectoryInUseError, openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { seedIfEmpty } from './db/seed.js';
import { exitOnCrash } from './runtime/crash.js';
import { isEntryPoint } from './runtime/entry-point.js';
import { createLogger, flushLogs } from './runtime/logger.js';
import { redisStores } from './http/rate-limit.js';
import { docsPath } from './http/security-headers.js';
import { specPath } from './http/outside-api.js';
import { createMetrics } from './runtime/metrics.js';
import { startMetricsServer, type RunningMetricsServer } from './runtime/metrics-server.js';
import { closeRedis, createRedisClient, waitUntilReady } from './runtime/redis.js';
import { startServer } from './runtime/server.js';
import { describeStartupFailure } from './runtime/startup-failure.js';
import { createHandlers } from './operations/index.js';
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
  const database = await openDatabase({ url: config.database.url, poolSize: config.database.poolSize, dataDir: config.database.pgliteDataDir });
  let redis: ReturnType<typeof createRedisClient> | undefined;
  let metricsServer: RunningMetricsServer | undefined;
  try {
    await migrate(database);
    if (config.seedDemoData && (await seedIfEmpty(database))) logger.info('empty database seeded with the demo data');

    if (config.rateLimit.redisUrl !== undefined) {
      redis = createRedisClient(config.rateLimit.redisUrl, logger);
      if (!(await waitUntilReady(redis, redisStartupWaitMs))) logger.warn('Redis not ready at start: serving without rate limits until it is');
    }
    const metrics = config.metrics === undefined ? undefined : createMetrics(database);
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
    return {
      url: server.url,
      metricsUrl: runningMetrics?.url,
      stop() {
        stopped ??= (async () => {
          await server.close(config.timeouts.shutdownMs);
          // The last requests' spans, before the process exits with them still in the batch.
          await flushTraces();
          await runningMetrics?.close();
          await database.close();
          if (redis !== undefined) await closeRedis(redis);
        })();
        return stopped;
      },
    };
  } catch (error) {
    await metricsServer?.close();
    await database.close();
    if (redis !== undefined) await closeRedis(redis);
    throw error;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  exitOnCrash(logger);
  let service: RunningService;
  try {
    service = await startService(config, logger);
  } catch (error) {
    // One plain line on stderr naming the cause and what to do, not a stack trace (that only at
    // LOG_LEVEL=debug); nothing was left open and nothing listens.
    const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
    if (verbose) process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    if (error instanceof DataDirectoryInUseError) {
      process.stderr.write(`Cannot start: ${error.message}\n`);
      process.exit(3);
    }
    const known = describeStartupFailure(error, config);
    const line = known ?? (verbose ? firstLine(error) : `${firstLine(error)} (LOG_LEVEL=debug shows the stack)`);
    process.stderr.write(`Cannot start: ${line}\n`);
    process.exit(1);
  }

  const shutdown = (signal: NodeJS.Signals): void => {
    logger.info({ signal, graceMs: config.timeouts.shutdownMs }, 'shutting down');
    // The grace period covers requests in flight; closing the database and Redis gets one more second.
    const force = setTimeout(() => {
      logger.error('shutdown took too long: exiting anyway');
      flushLogs(logger);
      process.exit(1);
    }, config.timeouts.shutdownMs + 1_000);
    force.unref();
    service.stop().then(
      () => {
        logger.info('stopped');
        flushLogs(logger);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        flushLogs(logger);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

if (isEntryPoint(import.meta.url)) await main();
