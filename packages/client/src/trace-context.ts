// Trace context for the service's traces: headers (W3C `traceparent`, `tracestate`) that make each call
// a child of the caller's active span, so one trace runs from the page or process through the service
// to its SQL. The client imports no tracing library: the caller passes a source of those headers, or
// its own OpenTelemetry API to `openTelemetryTraceContext`, and without one nothing is sent.

/** Headers that carry the caller's trace context, asked for once per call (every retry sends the same). */
export type TraceContextSource = () => Readonly<Record<string, string>> | undefined;

/** The two members of `@opentelemetry/api` this needs (its `context` and `propagation`), structurally. */
export interface OpenTelemetryApi {
  context: { active(): unknown };
  propagation: { inject(context: never, carrier: Record<string, string>): void };
}

/**
 * A trace context source over the caller's own `@opentelemetry/api`: the active span's context, as the
 * registered propagator writes it (W3C by default). Without an active span or an SDK it writes nothing,
 * and no header is sent.
 *
 * ```ts
 * import * as api from '@opentelemetry/api';
 * createApiClient({ baseUrl, token, traceContext: openTelemetryTraceContext(api) });
 * ```
 */
export function openTelemetryTraceContext(api: OpenTelemetryApi): TraceContextSource {
  return () => {
    const carrier: Record<string, string> = {};
    api.propagation.inject(api.context.active() as never, carrier);
    return carrier;
  };
}
