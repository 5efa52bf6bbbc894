// The process's logger (pino): JSON lines with the service name and ISO timestamps for machines, or,
// in a developer's terminal, one readable line per event (pino-pretty). LOG_FORMAT=auto (the default)
// picks pretty only when stdout is a terminal, so logs collected from a pipe or a container stay JSON.
//
// JSON lines go through an asynchronous, buffered destination (pino.destination, sync: false): a
// request's line is appended to a buffer and written with others in one write() off the main thread,
// instead of one blocking write() per request. Nothing is lost at the end: pino flushes that buffer
// synchronously when the process exits (process.exit, the end of the event loop), and the crash
// handler (crash.ts) logs the fatal line before it exits; `flushLogs` pushes a line out at once where
// someone is waiting for it (the `listening` line). Before an exit, `flushLogsBeforeExit` gives a
// stdout whose reader has stopped reading a bounded time, so a stalled log collector cannot keep the
// process from ending. While the process runs, the buffer is bounded too (`logBufferLimitBytes`):
// beyond it lines are dropped, counted (`droppedLogLines`, the metric log_lines_dropped_total), and
// reported by a warning as soon as the reader takes lines again.
//
// pino-pretty runs as a stream in the main thread, not as a pino transport (a worker thread): it is for
// a terminal only, where its CPU cost does not matter; written synchronously, the last lines before a
// `process.exit` are never lost (a transport's worker may still hold them); and its message format can
// be a function, which a transport's options, copied to the worker, cannot carry.
import { ROOT_CONTEXT, context } from '@opentelemetry/api';
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
 * The most the JSON destination holds while stdout's reader does not keep up (a stalled log collector,
 * a full pipe): about 50,000 request lines. Beyond it a line is dropped rather than kept, so that a
 * reader that stops costs log lines, never the process's memory.
 */
export const logBufferLimitBytes = 16 * 1024 * 1024;

/** Lines this process dropped from stdout's buffer since it started: one stdout, whatever the loggers. */
let droppedLines = 0;

export function droppedLogLines(): number {
  return droppedLines;
}

/**
 * How long the last flush before an exit waits for a stdout whose reader takes nothing (a full pipe:
 * EAGAIN), and how long at most in all. sonic-boom retries such a write asynchronously while the
 * service runs (the lines wait in memory), but in a synchronous flush it retries in a blocking loop:
 * without a bound, a stalled log collector would hold the process forever, its event loop blocked, so
 * that not even the shutdown's force-exit timer could fire. A reader that keeps taking lines, however
 * slowly (a busy machine, a collector behind a slow network), gets every line up to the overall bound.
 */
export const exitFlushStallMs = 1_000;
export const exitFlushGiveUpMs = 10_000;

/** Set only during the flush before an exit: when it began, and when the reader last took bytes. */
let exitFlush: { startedAt: number; progressAt: number; bytesLeft: number } | undefined;

/** sonic-boom's retryEAGAIN: whether a write that found stdout's pipe full is tried again. */
function retryFullPipe(_error: Error, writingBytes: number, otherBytes: number): boolean {
  if (exitFlush === undefined) return true;
  const now = Date.now();
  const bytesLeft = writingBytes + otherBytes;
  if (bytesLeft < exitFlush.bytesLeft) {
    exitFlush.bytesLeft = bytesLeft;
    exitFlush.progressAt = now;
  }
  return now - exitFlush.progressAt < exitFlushStallMs && now - exitFlush.startedAt < exitFlushGiveUpMs;
}

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

export function createLogger(
  level: LogLevel,
  format: LogFormat = 'json',
  stdout: { isTTY?: boolean } = process.stdout,
  options: { bufferLimitBytes?: number } = {},
): Logger {
  // With tracing on, every line written inside a traced request names its trace and span; without,
  // no mixin at all, so a line costs what it did before tracing existed.
  const traceIds = tracingActive() ? { mixin: activeTraceIds } : {};
  if (!usePretty(format, stdout)) {
    const destination = pino.destination({
      dest: 1,
      sync: false,
      minLength: bufferBytes,
      maxLength: options.bufferLimitBytes ?? logBufferLimitBytes,
      periodicFlush: flushEveryMs,
      retryEAGAIN: retryFullPipe,
    });
    const logger = pino({ level, base, timestamp: isoTimeEachMillisecond(), ...traceIds }, destination);
    reportDroppedLines(destination, logger);
    return logger;
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

/** Per JSON logger: writes the warning about lines dropped since the last one, if any (before an exit). */
const reportDropsNow = new WeakMap<Logger, () => void>();

/**
 * Counts the lines the destination drops when its buffer is full, and says how many in a warning
 * written after the lines that were buffered before them: where the gap is. The warning waits for the
 * first write the reader takes (a microtask after it, once the destination has counted the bytes it
 * wrote as gone); one that finds the buffer still full is dropped in turn, and its count waits for
 * the next write. It belongs to no request: written outside any request's trace context.
 */
function reportDroppedLines(destination: ReturnType<typeof pino.destination>, logger: Logger): void {
  let unreported = 0;
  let reporting = 0;
  const report = (): void => {
    if (unreported === 0 || reporting > 0) return;
    reporting = unreported;
    unreported = 0;
    try {
      // At a level that hides warnings the count stays in the metric only.
      if (logger.isLevelEnabled('warn')) {
        context.with(ROOT_CONTEXT, () =>
          logger.warn({ droppedLines: reporting }, `stdout was not read fast enough: ${reporting} log lines dropped before this one`),
        );
      }
    } finally {
      reporting = 0;
    }
  };
  reportDropsNow.set(logger, report);
  destination.on('drop', () => {
    if (reporting > 0) {
      // The warning itself did not fit: its lines stay unreported.
      unreported += reporting;
      return;
    }
    unreported += 1;
    droppedLines += 1;
  });
  destination.on('write', () => queueMicrotask(report));
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

/** The logger's JSON destination (sonic-boom), or undefined for the pretty stream. */
function destinationOf(logger: Logger): { flushSync(): void; destroy(): void; maxLength: number } | undefined {
  const stream: unknown = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (typeof stream !== 'object' || stream === null) return undefined;
  if (!('flushSync' in stream) || typeof stream.flushSync !== 'function' || !('destroy' in stream) || typeof stream.destroy !== 'function') return undefined;
  return stream as { flushSync(): void; destroy(): void; maxLength: number };
}

/** The error of a write that found stdout's pipe full after the retries were given up. */
function isFullPipe(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EAGAIN' || code === 'EBUSY';
}

/** Writes whatever the logger's destination still buffers, synchronously (a no-op for the pretty stream). */
export function flushLogs(logger: Logger): void {
  const destination = destinationOf(logger);
  try {
    destination?.flushSync();
  } catch (error) {
    if (isFullPipe(error)) throw error;
    // A destination still opening (its fd not ready) or closed: pino's exit hook flushes what remains.
  }
}

/**
 * The end of the logs before `process.exit`: `lastLines` logs them (pino's `fatal` flushes by itself),
 * then every buffered line is written, unless stdout's reader has stopped reading: after
 * `exitFlushStallMs` without taking a byte (or `exitFlushGiveUpMs` in all) what it did not take is
 * dropped and the destination closed, so that pino's own flush at exit does not wait for it again.
 */
export function flushLogsBeforeExit(logger: Logger, lastLines: () => void = () => undefined): void {
  const now = Date.now();
  exitFlush = { startedAt: now, progressAt: now, bytesLeft: Number.POSITIVE_INFINITY };
  // The last lines are kept whatever the buffer holds (0: no limit): the flush below gives up on a
  // stalled reader within the bounds above, so memory cannot grow for long.
  const destination = destinationOf(logger);
  if (destination !== undefined) destination.maxLength = 0;
  try {
    reportDropsNow.get(logger)?.();
    lastLines();
    flushLogs(logger);
  } catch (error) {
    if (!isFullPipe(error)) throw error;
    destination?.destroy();
  } finally {
    exitFlush = undefined;
  }
}
