// A loopback OTLP/HTTP receiver that accepts trace exports and discards them: the cheapest collector
// there is, so that tracing's measured cost is the service's (making spans, encoding, sending) and not
// a collector's.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds `/v1/traces`). */
  url: string;
  /** Export requests received so far: a run whose traced side sent none measured nothing. */
  exports(): number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/traces') received += 1;
      // An empty body is a valid ExportTraceServiceResponse in protobuf and, as `{}`, in JSON.
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
