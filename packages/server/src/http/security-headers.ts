// Security headers (helmet) and CORS. The API answers JSON only, so its Content-Security-Policy allows
// nothing; /docs is the one HTML page and gets a policy that lets its inlined Redoc run (inline
// scripts and styles, and the blob: worker Redoc starts for search).
import type { IncomingMessage, ServerResponse } from 'node:http';
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
  // A file's name (the PDF, an attachment), for a page that saves the download under it.
  'Content-Disposition',
  // Sent on answers that use something deprecated (deprecation.ts): the client's warning reads them.
  'Deprecation',
  'Sunset',
  'Link',
];

/** A header helmet sets, as it sets it: helmet's middleware answers every request alike. */
type Header = readonly [name: string, value: string];

/**
 * The headers a helmet middleware sets, read once by running it on a stand-in response. helmet stays
 * the one that decides the headers and their values; each request then gets them in one loop instead
 * of a dozen nested middleware calls, which showed in the profile of light requests.
 */
export function headersSetBy(middleware: ReturnType<typeof helmet>): Header[] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  let continued = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined) throw error;
    continued = true;
  });
  if (!continued) throw new Error('helmet did not continue synchronously: its headers cannot be read ahead');
  return [...headers];
}

function setAll(headers: readonly Header[]): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

export function securityHeaders(): RequestHandler {
  const forApi = setAll(
    headersSetBy(helmet({ contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } } })),
  );
  const forDocs = setAll(
    headersSetBy(
      helmet({
        contentSecurityPolicy: {
          useDefaults: true,
          directives: {
            'script-src': ["'self'", "'unsafe-inline'"],
            'style-src': ["'self'", "'unsafe-inline'"],
            'img-src': ["'self'", 'data:'],
            'worker-src': ["'self'", 'blob:'],
          },
        },
      }),
    ),
  );
  return (req, res, next) => (req.path === docsPath ? forDocs(req, res, next) : forApi(req, res, next));
}

/** What CORS needs to know of the served operations: their methods and the headers they declare. */
export interface CorsOperation {
  readonly method: string;
  readonly headerParams: ReadonlyArray<{ readonly name: string }>;
}

/** Request headers every operation may carry besides its own: the token, and the body's and answer's types. */
const baseRequestHeaders = ['Authorization', 'Content-Type', 'Accept'];

/**
 * CORS for the configured origins only (exact strings, or patterns for the stateful mock's local
 * origins); none configured means no CORS headers at all. The methods a preflight allows and the
 * request headers it lets through are the served spec's (every operation's method, every header
 * parameter it declares), so an operation or header added to the spec works from a page at once: a
 * DELETE or an If-None-Match missing here would fail in the browser only, as "no answer".
 */
export function crossOrigin(origins: ReadonlyArray<string | RegExp>, operations: readonly CorsOperation[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  const methods = [...new Set(operations.map((operation) => operation.method.toUpperCase()))].sort();
  const declaredHeaders = operations.flatMap((operation) => operation.headerParams.map((header) => header.name));
  return cors({
    origin: [...origins],
    methods,
    allowedHeaders: [...new Set([...baseRequestHeaders, ...declaredHeaders.sort()])],
    exposedHeaders,
    maxAge: 600,
  });
}
