// Announces what is on its way out. An answer to a request that uses something the spec marks
// `deprecated: true` (the operation itself, a parameter the request sends, a request body property
// it sends) carries `Deprecation: @<epoch seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and
// `Link: </docs#operation/<id>>; rel="deprecation"` (RFC 9745), whatever its status. A request that
// avoids the deprecated parameter or property gets none of them: it already does what will keep
// working. The dates come from the operation's generated entry (`x-deprecated-since`, `x-sunset`);
// when several deprecated things are used, the earliest of each date is announced, since that is
// when the request first stops being safe. Runs after the body is parsed, so a refused token or a
// malformed body is answered without them.
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import type { DeprecationFacts, DeprecationNotice } from '@invoice-api/contract';

/** Whether `value` holds something at `path` (names, `*` for every item of an array). */
function holds(value: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return value !== undefined;
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(value) && value.some((item) => holds(item, rest));
  if (typeof value !== 'object' || value === null || Array.isArray(value) || head === undefined) return false;
  return Object.hasOwn(value, head) && holds((value as Record<string, unknown>)[head], rest);
}

/** The deprecated things this request uses. */
export function usedNotices(facts: DeprecationFacts, request: { query: unknown; headers: IncomingHttpHeaders; body: unknown }): DeprecationNotice[] {
  const used: DeprecationNotice[] = facts.operation === null ? [] : [facts.operation];
  for (const parameter of facts.parameters) {
    const sent =
      parameter.in === 'path' ||
      (parameter.in === 'query' && holds(request.query, [parameter.name])) ||
      (parameter.in === 'header' && request.headers[parameter.name.toLowerCase()] !== undefined);
    if (sent) used.push(parameter);
  }
  for (const property of facts.requestProperties) if (holds(request.body, property.path)) used.push(property);
  return used;
}

/** The three headers for the notices used; undefined when none is. */
export function deprecationHeaderValues(link: string, notices: readonly DeprecationNotice[]): Record<'Deprecation' | 'Sunset' | 'Link', string> | undefined {
  if (notices.length === 0) return undefined;
  const deprecatedAt = Math.min(...notices.map((notice) => notice.deprecatedAt));
  const sunsetAt = Math.min(...notices.map((notice) => notice.sunsetAt));
  return {
    // RFC 9745: a structured-field Date, `@` and the seconds since the epoch.
    Deprecation: `@${deprecatedAt}`,
    // RFC 8594: an HTTP-date (IMF-fixdate), which toUTCString writes.
    Sunset: new Date(sunsetAt * 1000).toUTCString(),
    Link: `<${link}>; rel="deprecation"; type="text/html"`,
  };
}

/**
 * The entry's deprecation facts as their general type: while the spec deprecates nothing, the
 * generated table types every entry's `deprecation` as `null`.
 */
function factsOf(operation: { readonly deprecation: DeprecationFacts | null } | undefined): DeprecationFacts | null {
  return operation?.deprecation ?? null;
}

export function deprecationHeaders(): RequestHandler {
  return (req, res, next) => {
    const facts = factsOf(res.locals.operation);
    if (facts !== null) {
      const headers = deprecationHeaderValues(facts.link, usedNotices(facts, req));
      if (headers !== undefined) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    }
    next();
  };
}
