// A process that logs LINES request-sized lines through the service's JSON logger, with a log buffer
// of BUFFER_LIMIT bytes, in batches over several turns of the event loop (as requests would), while
// its parent does not read stdout. It says `written` on stderr, gives the parent a moment to read
// again, then ends as the service does, its last line naming how many lines it counted as dropped.
import { createLogger, droppedLogLines, flushLogsBeforeExit } from '../../../src/runtime/logger.js';

const lines = Number(process.env['LINES'] ?? 5_000);
const logger = createLogger('info', 'json', process.stdout, { bufferLimitBytes: Number(process.env['BUFFER_LIMIT'] ?? 65_536) });
const padding = 'x'.repeat(200);
const batch = 100;

let next = 1;
function logBatch(): void {
  for (const end = Math.min(next + batch, lines + 1); next < end; next += 1) logger.info({ index: next, padding }, 'request completed');
  if (next <= lines) setImmediate(logBatch);
  else {
    process.stderr.write('written\n');
    setTimeout(() => {
      logger.info({ dropped: droppedLogLines() }, 'stopped');
      flushLogsBeforeExit(logger);
      process.exit(0);
    }, 1_000);
  }
}
logBatch();
