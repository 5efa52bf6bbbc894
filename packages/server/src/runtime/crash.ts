// The last words of a crashing process: an exception nothing caught (or a rejection nothing handled,
// which Node raises as one) is logged as a `fatal` line with its stack, the logger's buffer is written
// out synchronously, and the process exits with 1, as Node would have. Without this, the lines the
// asynchronous logger still buffered and the reason of the crash would both be lost.
import type { Logger } from 'pino';
import { flushLogsBeforeExit } from './logger.js';

export function exitOnCrash(logger: Logger): void {
  process.once('uncaughtException', (error: unknown) => {
    try {
      flushLogsBeforeExit(logger, () => logger.fatal({ err: error }, 'uncaught exception: exiting'));
    } finally {
      process.stderr.write(`Crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    }
  });
}
