// The process's logger (pino): JSON lines with the service name and ISO timestamps for machines, or,
// in a developer's terminal, one readable line per event (pino-pretty). LOG_FORMAT=auto (the default)
// picks pretty only when stdout is a terminal, so logs collected from a pipe or a container stay JSON.
//
// JSON lines go through an asynchronous, buffered destination (pino.destination, sync: false): a
// request's line is appended to a buffer and written with others in one write() off the main thread,
// instead of one blocking write() per request. Nothing is lost at the end: pino flushes that buffer
// synchronously when the process exits (process.exit, the end of the event loop), and the crash
// handler (crash.ts) logs the fatal line before it exits; `flushLogs` pushes a line out at once where
// someone is waiting for it (the `listening` line).
//
// pino-pretty runs as a stream in the main thread, not as a pino transport (a worker thread): it is for
// a terminal only, where its CPU cost does not matter; written synchronously, the last lines before a
// `process.exit` are never lost (a transport's worker may still hold them); and its message format can
// be a function, which a transport's options, copied to the worker, cannot carry.
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../config.js';
import { activeTraceIds, tracingActive } from '../telemetry/spans.js';

const base = { service: 'invoice-api' };

/**
 * Bytes gathered before a write (about a dozen request lines), and the longest a line waits in the
 * buffer when traffic is too low to fill it.
 */
const bufferBytes = 4_096;
const flushEveryMs = 250;

/**
 * pino's `isoTime` (`,"time":"2026-03-01T09:30:00.123Z"`), formatted once per millisecond: at
 * thousands of request lines a second several share a millisecond, and formatting a Date was a visible
 * share of a light request's CPU.
 */
export function isoTimeEachMillisecond(now: () => number = Date.now): () => string {
  let formattedAt = Number.NaN;
  let formatted = '';
  return () => {
    const milliseconds = now();
    if (milliseconds !== formattedAt) {
      formattedAt = milliseconds;
      formatted = `,"time":"${new Date(milliseconds).toISOString()}"`;
    }
    return formatted;
  };
}

export function createLogger(level: LogLevel, format: LogFormat = 'json', stdout: { isTTY?: boolean } = process.stdout): Logger {
  // With tracing on, every line written inside a traced request names its trace and span; without,
  // no mixin at all, so a line costs what it did before tracing existed.
  const traceIds = tracingActive() ? { mixin: activeTraceIds } : {};
  if (!usePretty(format, stdout)) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: bufferBytes, periodicFlush: flushEveryMs });
    return pino({ level, base, timestamp: isoTimeEachMillisecond(), ...traceIds }, destination);
  }
  return pino(
    { level, base, timestamp: pino.stdTimeFunctions.isoTime, ...traceIds },
    pretty({
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      // What each line's message already says, or what a terminal does not need.
      ignore: 'pid,hostname,service,req,res,responseTime,requestId,url,docs,openapi,metrics,trace_id,span_id',
      messageFormat: readableMessage,
    }),
  );
}

export function usePretty(format: LogFormat, stdout: { isTTY?: boolean }): boolean {
  return format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
}

/** `GET /api/v1/users 200 4 ms`; the `listening` line with its addresses; any other message as is. */
function readableMessage(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? '');
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { status?: number } | undefined;
  if (req !== undefined && res !== undefined) {
    const status = res.status ?? 0;
    // The request id only where someone will look it up: a failure.
    const id = status >= 500 && typeof log.requestId === 'string' ? ` (request ${log.requestId})` : '';
    return `${req.method ?? ''} ${req.url ?? ''} ${status} ${String(log.responseTime ?? '?')} ms${id}${message === 'request completed' ? '' : `: ${message}`}`;
  }
  if (message === 'listening' && typeof log.url === 'string') {
    const metrics = typeof log.metrics === 'string' ? `, metrics ${log.metrics}` : '';
    return `listening on ${log.url} (reference ${String(log.docs)}, spec ${String(log.openapi)}${metrics})`;
  }
  return message;
}

/** Writes whatever the logger's destination still buffers, synchronously (a no-op for the pretty stream). */
export function flushLogs(logger: Logger): void {
  const stream: unknown = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (typeof stream === 'object' && stream !== null && 'flushSync' in stream && typeof stream.flushSync === 'function') {
    try {
      (stream.flushSync as () => void).call(stream);
    } catch {
      // A destination still opening (its fd not ready) or closed: pino's exit hook flushes what remains.
    }
  }
}
