// The security headers are read from helmet once and then set per request: each answer must carry
// exactly what helmet itself would have set, for the API and for the /docs page.
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { docsPath, headersSetBy, securityHeaders } from '../../src/http/security-headers.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function headersOf(middleware: RequestHandler, path: string): Promise<Record<string, string>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.use((_req, res) => {
    res.status(204).end();
  });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  const headers = Object.fromEntries(response.headers);
  // What every answer has whatever the middleware: not what is compared.
  for (const name of ['date', 'connection', 'keep-alive']) delete headers[name];
  return headers;
}

describe('security headers', () => {
  const apiHelmet = helmet({ contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } } });

  it('sets on an API answer exactly the headers helmet sets', async () => {
    const expected = await headersOf(apiHelmet, '/api/v1/users');
    expect(Object.keys(expected).length).toBeGreaterThan(8);
    expect(await headersOf(securityHeaders(), '/api/v1/users')).toEqual(expected);
    expect(expected['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('gives /docs its own policy, which lets the inlined reference run', async () => {
    const headers = await headersOf(securityHeaders(), docsPath);
    expect(headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(headers['content-security-policy']).toContain("worker-src 'self' blob:");
  });

  it('reads the headers of a helmet middleware without a request', () => {
    const headers = new Map(headersSetBy(helmet({ strictTransportSecurity: { maxAge: 123 } })));
    expect(headers.get('Strict-Transport-Security')).toBe('max-age=123; includeSubDomains');
    expect(headers.has('X-Powered-By')).toBe(false);
  });
});
