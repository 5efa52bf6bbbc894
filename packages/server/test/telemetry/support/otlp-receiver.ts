// A loopback OTLP/HTTP receiver that accepts trace exports in JSON (OTEL_EXPORTER_OTLP_PROTOCOL
// http/json) and keeps their spans, flattened, for a test to read: what a collector or Jaeger would
// receive from the service.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  scope: string;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number };
}

interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ scope?: { name?: string }; spans?: OtlpSpan[] }> }>;
}

export interface OtlpReceiver {
  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds `/v1/traces`). */
  url: string;
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  /** Resolves with the spans of a trace once `done` holds for them (a test's timeout bounds the wait). */
  trace(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        received.push(...flatten(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
        for (const wake of waiters) wake();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    trace(traceId, done) {
      return new Promise((resolve) => {
        const check = (): void => {
          const spans = received.filter((span) => span.traceId === traceId);
          if (!done(spans)) return;
          waiters.delete(check);
          resolve(spans);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function flatten(body: OtlpExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
        name: span.name,
        kind: span.kind,
        scope: scopeSpans.scope?.name ?? '',
        attributes: Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, plain(value)])),
        statusCode: span.status?.code ?? 0,
      })),
    ),
  );
}

function plain(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return '';
}
