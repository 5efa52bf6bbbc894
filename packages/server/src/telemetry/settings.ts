// Whether the process should trace, from the standard OpenTelemetry variables alone: tracing is on when
// an exporter is named (OTEL_TRACES_EXPORTER, other than `none`) or an OTLP endpoint is given, and
// OTEL_SDK_DISABLED is not `true`. Kept free of any OpenTelemetry import: the preload reads it first,
// and only when it says yes is the SDK loaded at all.
export type TracingEnvironment = Readonly<Record<string, string | undefined>>;

export function tracingRequested(env: TracingEnvironment): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.length > 0) return !exporters.every((name) => name === 'none');
  return nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) || nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}
