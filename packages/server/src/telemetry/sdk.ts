// The OpenTelemetry SDK, started by preload.ts only when tracing is asked for. Everything about where
// spans go comes from the standard OTEL_* variables, read by the SDK itself: OTEL_TRACES_EXPORTER
// (`otlp`, `console`, `zipkin`), OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_PROTOCOL
// (`http/protobuf`, `http/json`, `grpc`), OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_BSP_*.
// Traces only: metrics stay on the Prometheus port and logs on stdout, so the SDK's own metric and
// log pipelines, which default to OTLP, are given nothing to export.
//
// Under ESM the instrumentations patch a module when it is imported, through import-in-the-middle's
// loader hook. That hook must be registered with `module.register` (importing the hook file with
// `--import` registers nothing: opentelemetry-js#7034), and told which modules to wrap; the message
// channel carries the modules each instrumentation asks for, and the start waits until the loader
// thread has them, so the service's first import is already covered.
import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { describeServerSpan } from './server-span.js';

export interface RunningTracing {
  /** Exports what is buffered and stops; later spans are dropped. */
  shutdown(): Promise<void>;
}

export async function startTracing(): Promise<RunningTracing> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, registerOptions);

  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME === undefined ? { serviceName: 'invoice-api' } : {}),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        applyCustomAttributesOnSpan: describeServerSpan,
        // The service makes no outgoing HTTP calls of its own worth a root span (JWKS refreshes aside).
        requireParentforOutgoingSpans: true,
      }),
      new ExpressInstrumentation(),
      // Statements and Redis commands of a request only: startup migrations, the pool's health pings
      // and the background purge would each be a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}
