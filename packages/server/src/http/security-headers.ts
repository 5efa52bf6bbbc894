// Security headers (helmet) and CORS. The API answers JSON only, so its Content-Security-Policy allows
// nothing; /docs is the one HTML page and gets a policy that lets its inlined Redoc run (inline
// scripts and styles, and the blob: worker Redoc starts for search).
import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export const docsPath = '/docs';

/** Response headers a browser script may read on a cross-origin answer. */
export const exposedHeaders = [
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-Request-Id',
  'ETag',
  'Idempotent-Replayed',
  // Sent on answers that use something deprecated (deprecation.ts): the client's warning reads them.
  'Deprecation',
  'Sunset',
  'Link',
];

export function securityHeaders(): RequestHandler {
  const forApi = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
  });
  const forDocs = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", "'unsafe-inline'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'worker-src': ["'self'", 'blob:'],
      },
    },
  });
  return (req, res, next) => (req.path === docsPath ? forDocs(req, res, next) : forApi(req, res, next));
}

/**
 * CORS for the configured origins only (exact strings, or patterns for the stateful mock's local
 * origins); none configured means no CORS headers at all.
 */
export function crossOrigin(origins: ReadonlyArray<string | RegExp>): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  return cors({
    origin: [...origins],
    methods: ['GET', 'POST', 'PATCH'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id', 'Idempotency-Key', 'If-Match'],
    exposedHeaders,
    maxAge: 600,
  });
}
