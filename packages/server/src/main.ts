// The process: read the configuration, make sure the ports are free, start the service (service.ts),
// and shut down gracefully on SIGTERM/SIGINT. A start that fails says why in one line.
//
// Start-up order is for speed: only the configuration and the port check are imported statically, so
// a bad setting or a port in use is reported at once; the service and its libraries (express, the
// validator, the database engines), which take most of a second to load, are imported after that.
import { ConfigError, loadConfig, type Config } from './config.js';
import { isEntryPoint } from './runtime/entry-point.js';
import { listenFailure } from './runtime/listen-failure.js';
import { checkPortsFree } from './runtime/port-check.js';
import type { RunningService } from './service.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(2);
  }
  try {
    await checkPortsFree(config);
  } catch (error) {
    const line = listenFailure(error, config);
    if (line === undefined) throw error;
    process.stderr.write(`Cannot start: ${line}\n`);
    process.exit(1);
  }
  const [{ startService }, { createLogger, flushLogsBeforeExit }, { exitOnCrash }, { DataDirectoryInUseError }, { describeStartupFailure }] = await Promise.all(
    [
      import('./service.js'),
      import('./runtime/logger.js'),
      import('./runtime/crash.js'),
      import('./db/single-writer-lock.js'),
      import('./runtime/startup-failure.js'),
    ],
  );
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
      flushLogsBeforeExit(logger);
      process.exit(1);
    }, config.timeouts.shutdownMs + 1_000);
    force.unref();
    service.stop().then(
      () => {
        logger.info('stopped');
        flushLogsBeforeExit(logger);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        flushLogsBeforeExit(logger);
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
