// The service's own spans, written against @opentelemetry/api alone: without an SDK (tracing off) the
// API hands out non-recording spans and every call here is a no-op. What they add to the instrumented
// HTTP, express, pg and Redis spans: the statements run on PGlite, which no instrumentation sees, the
// statements whose rows are read one by one on PostgreSQL (db/each-row.ts), whose spans the pg
// instrumentation starts but never ends, and the idempotency and If-Match steps that can wait on a lock.
import { ProxyTracerProvider, SpanKind, SpanStatusCode, context, trace, type Attributes, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('invoice-api');

/**
 * Runs `work` inside a child span of the active one, ended when it settles; an error is recorded on
 * the span and rethrown. Without an active span (startup, background work) no span is made.
 */
export async function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (trace.getSpan(context.active()) === undefined) return work();
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, ...(error instanceof Error ? { message: error.message } : {}) });
  if (error instanceof Error) span.recordException(error);
}

/**
 * A SQL statement's span, with the attributes the pg instrumentation gives PostgreSQL's: the statement
 * text with its `$1` placeholders, never the values bound to them. Named `pglite.query:<operation>`
 * unless `spanName` names it (`pg.query:...`, as the instrumentation names the statements it sees).
 */
export function inStatementSpan<T>(statement: string, work: () => Promise<T>, spanName?: (operation: string) => string): Promise<T> {
  if (trace.getSpan(context.active()) === undefined) return work();
  const operation = operationName(statement);
  return inSpan(
    spanName?.(operation) ?? `pglite.query:${operation}`,
    { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': statement },
    work,
    SpanKind.CLIENT,
  );
}

/** The statement's first word in capitals (`SELECT`, `WITH`, `BEGIN`), as the pg instrumentation names it. */
function operationName(statement: string): string {
  const trimmed = statement.trimStart();
  const end = trimmed.search(/[\s;(]/);
  return (end === -1 ? trimmed : trimmed.slice(0, end)).toUpperCase();
}

/** Whether an SDK registered a tracer provider (tracing on). */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('invoice-api') !== undefined;
}

/**
 * `trace_id` and `span_id` of the active span, for a log line; nothing outside a traced request. A new
 * object each time: pino merges the line's own fields into it.
 */
export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The longest a shutdown waits for the last spans to reach the collector. */
const flushTimeoutMs = 2_000;

/**
 * Exports the spans still buffered, if an SDK is running: called before the process exits, where the
 * batch processor's own timer would never fire again. Never fails and never waits long: a collector
 * that is down or slow costs the shutdown its last spans, not its exit.
 */
export async function flushTraces(): Promise<void> {
  const provider = trace.getTracerProvider();
  const delegate: unknown = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  if (typeof delegate !== 'object' || delegate === null || !('forceFlush' in delegate) || typeof delegate.forceFlush !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, flushTimeoutMs);
  });
  const flushed = (delegate.forceFlush as () => Promise<void>).call(delegate).catch(() => undefined);
  try {
    await Promise.race([flushed, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
