// What every answer carries (request id, security headers, logs without secrets), CORS, and the two
// answers outside the API (/openapi.json and /docs).
import { readFileSync } from 'node:fs';
import { loadSpec, publishedSpecPath } from '@invoice-api/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/databases.js';
import { capturingLogger, startTestService, token, type TestService } from './support/service.js';

describe('the HTTP platform', () => {
  const database = useTestDatabase('postgres', { name: 'http_platform' });
  const logs = capturingLogger();
  let service: TestService;
  let bearer: string;

  beforeAll(async () => {
    service = await startTestService({ database: database(), logger: logs.logger });
    bearer = await token();
  });
  afterAll(() => service?.close());

  const users = (headers: Record<string, string> = {}) => fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}`, ...headers } });

  describe('X-Request-Id', () => {
    it("echoes the caller's id when it is 1 to 128 letters, digits, '.', '_', ':' or '-'", async () => {
      for (const id of ['a', 'req-42_x.y:z-1', 'x'.repeat(128), '6f1c2a9e-8d3b-4e0a-9a57-2c1d3b4e5f60']) {
        const response = await users({ 'x-request-id': id });
        expect(response.headers.get('x-request-id')).toBe(id);
      }
    });

    it('makes a new one for an unusable id', async () => {
      for (const id of ['x'.repeat(129), 'has space', 'tab\there', '', '<script>"x', 'a/b', '!~', "it's"]) {
        const response = await users({ 'x-request-id': id });
        const echoed = response.headers.get('x-request-id');
        expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
        expect(echoed).not.toBe(id);
        // Refused ids are replaced, never a reason to refuse the request.
        expect(response.status).toBe(200);
      }
    });

    it('is on every answer, errors and answers outside the API included', async () => {
      const answers = await Promise.all([
        fetch(`${service.url}/nowhere`),
        fetch(`${service.url}/api/v1/users`),
        fetch(`${service.url}/healthz`),
        fetch(`${service.url}/openapi.json`),
        fetch(`${service.url}/api/v1/users`, { method: 'PUT' }),
      ]);
      for (const response of answers) expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('is in the log line of the request, which holds no token', async () => {
      const id = `log-check-${Date.now()}`;
      await users({ 'x-request-id': id });
      // The line is written when the response finishes, which the client may see a moment earlier.
      await expect.poll(() => logs.lines().some((entry) => entry.requestId === id)).toBe(true);
      const line = logs.lines().find((entry) => entry.requestId === id);
      expect(line).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/v1/users' }, res: { status: 200 } });
      expect(JSON.stringify(logs.lines())).not.toContain(bearer);
    });
  });

  describe('security headers', () => {
    it('sends a deny-all CSP and nosniff on API answers, and no X-Powered-By', async () => {
      const response = await users();
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-powered-by')).toBeNull();
    });
  });

  describe('outside the API', () => {
    it('serves the published spec at /openapi.json without a token', async () => {
      const response = await fetch(`${service.url}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(JSON.parse(readFileSync(publishedSpecPath, 'utf8')));
    });

    it('serves the reference page at /docs with a CSP that lets Redoc run', async () => {
      const response = await fetch(`${service.url}/docs`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/worker-src 'self' blob:/);
      expect(csp).toMatch(/script-src 'self' 'unsafe-inline'/);
      const html = await response.text();
      expect(html).toContain('Redoc.init(');
      expect(html).toContain(loadSpec().info.title);
    });

    it('serves a /docs page that loads nothing from another origin (its CSP would refuse it)', async () => {
      const html = await (await fetch(`${service.url}/docs`)).text();
      // Redoc's bundle names remote URLs in links and comments; what a browser would fetch by itself is a src.
      expect(html.match(/src:?\s*["'`]https?:\/\/[^"'`]+/g) ?? []).toEqual([]);
    });

    it('answers another method on them with 405 and Allow', async () => {
      const response = await fetch(`${service.url}/openapi.json`, { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
    });
  });
});

describe('CORS', () => {
  const database = useTestDatabase('postgres', { name: 'http_cors' });
  const origin = 'https://app.example.com';
  let withCors: TestService;
  let withoutCors: TestService;

  beforeAll(async () => {
    withCors = await startTestService({ database: database(), env: { CORS_ORIGINS: `${origin}, https://admin.example.com` } });
    withoutCors = await startTestService({ database: database() });
  });
  afterAll(async () => {
    await withCors?.close();
    await withoutCors?.close();
  });

  it('answers a preflight from a configured origin', async () => {
    const response = await fetch(`${withCors.url}/api/v1/invoices/search`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key, if-match' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-match');
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('lets through every method and request header the spec declares: a removal with If-Match, a PDF with If-None-Match', async () => {
    for (const [method, headers, path] of [
      ['DELETE', 'authorization, if-match, x-request-id', '/api/v1/invoices/1'],
      ['GET', 'authorization, if-none-match', '/api/v1/invoices/1/pdf'],
      ['PATCH', 'authorization, content-type, if-match', '/2.0/delivery/1'],
    ] as const) {
      const response = await fetch(`${withCors.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')?.split(','), method).toContain(method);
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
      for (const header of headers.split(', ')) expect(allowed, `${method} ${header}`).toContain(header);
    }
  });

  it('exposes Location, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, ETag, Idempotent-Replayed, Content-Disposition and the deprecation headers', async () => {
    const response = await fetch(`${withCors.url}/api/v1/users`, { headers: { origin, authorization: `Bearer ${await token()}` } });
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim());
    expect(exposed).toEqual(
      expect.arrayContaining([
        'Location',
        'Retry-After',
        'RateLimit',
        'RateLimit-Policy',
        'X-Request-Id',
        'ETag',
        'Idempotent-Replayed',
        'Content-Disposition',
        'Deprecation',
        'Sunset',
        'Link',
      ]),
    );
  });

  it('allows no other origin', async () => {
    const response = await fetch(`${withCors.url}/healthz`, { headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no CORS headers when no origin is configured', async () => {
    const response = await fetch(`${withoutCors.url}/healthz`, { headers: { origin } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-expose-headers')).toBeNull();
  });
});
