// A process that logs LINES request-sized lines through the service's JSON logger (asynchronous and
// buffered), then ends the way the service ends: `exit` as main.ts's graceful shutdown does (a last
// line, then process.exit), `crash` by an exception nothing catches (with main.ts's crash handler).
import { exitOnCrash } from '../../../src/runtime/crash.js';
import { createLogger, flushLogsBeforeExit } from '../../../src/runtime/logger.js';

const lines = Number(process.env['LINES'] ?? 1_000);
const ending = process.argv[2];
const logger = createLogger('info', 'json');
exitOnCrash(logger);
const padding = 'x'.repeat(200);
for (let index = 1; index <= lines; index += 1) logger.info({ index, padding }, 'request completed');
if (ending === 'exit') {
  logger.info('stopped');
  flushLogsBeforeExit(logger);
  process.exit(0);
} else if (ending === 'crash') {
  setImmediate(() => {
    throw new Error('boom: the last lines must survive this');
  });
} else {
  throw new Error(`usage: log-then-end.ts exit|crash (got ${String(ending)})`);
}
