// The listener of `/metrics` (METRICS_PORT): a plain node:http server of its own, so that the metrics
// are never reachable on the API's port, never pass its token check or rate limits, and are not
// counted as API requests. Whoever can reach this port can read them: bind it to an interface only
// the scraper reaches (METRICS_HOST).
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listen } from './listen.js';

export const metricsPath = '/metrics';

export interface RunningMetricsServer {
  /** `http://host:port/metrics` with the port actually bound. */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(registry: Registry, options: { host: string; port: number }): Promise<RunningMetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== metricsPath) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Not found: the metrics are at ${metricsPath}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Collecting the metrics failed\n');
      },
    );
  });
  const baseUrl = await listen(server, options.port, options.host);
  return {
    url: `${baseUrl}${metricsPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        // A scrape is short and can be repeated: nothing to drain.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
