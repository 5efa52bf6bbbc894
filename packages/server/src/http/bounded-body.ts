// Keeps the cost of validating a body proportional to the spec's limits, not to the body's size. Ajv
// with allErrors (needed to report the first problem in body order) reports every element of an
// over-long array and every unknown property: 1 MiB of `{"items":[{},{},...]}` made a million problems
// and seconds of CPU. Before the validator runs, an array longer than its `maxItems` is cut to
// `maxItems + 1` elements and a closed object keeps only its first unknown property. Such a body is
// invalid either way, and the first problem in body order stays the same (the array's own `maxItems`
// problem, or the first unknown property, precedes everything that was cut), so the answer does not
// change. The bounds come precomputed from the generated operation table (`body.bounds`), which keeps
// only the parts of the schema where a bound applies, so the walk follows those parts alone.
import type { RequestHandler } from 'express';
import { isRecord, type BodyBounds } from '@invoice-api/contract';
import './locals.js';

/** `value` with over-long arrays cut and surplus unknown properties dropped; `value` itself if nothing was. */
export function boundBody(value: unknown, bounds: BodyBounds | undefined): unknown {
  if (bounds === undefined) return value;

  if (Array.isArray(value)) {
    const limit = bounds.maxItems;
    const kept = limit !== undefined && value.length > limit + 1 ? value.slice(0, limit + 1) : value;
    if (bounds.items === undefined) return kept;
    let changed = kept !== value;
    const elements = kept.map((element: unknown) => {
      const bounded = boundBody(element, bounds.items);
      if (bounded !== element) changed = true;
      return bounded;
    });
    return changed ? elements : value;
  }

  if (isRecord(value) && (bounds.known !== undefined || bounds.properties !== undefined)) {
    const properties = bounds.properties ?? {};
    const result: Record<string, unknown> = {};
    let changed = false;
    let unknownSeen = false;
    for (const [key, entry] of Object.entries(value)) {
      // `known` is there whenever it matters: for a closed object or one whose other properties have bounds.
      const known = bounds.known === undefined || bounds.known.includes(key);
      if (!known && bounds.closed === true) {
        if (unknownSeen) {
          changed = true;
          continue;
        }
        unknownSeen = true;
      }
      const bounded = boundBody(entry, known ? (Object.hasOwn(properties, key) ? properties[key] : undefined) : bounds.additional);
      if (bounded !== entry) changed = true;
      result[key] = bounded;
    }
    return changed ? result : value;
  }
  return value;
}

/** The middleware: runs between the body parser and the validator, on JSON bodies (the bounds are the JSON schema's). */
export function boundedBody(): RequestHandler {
  return (req, res, next) => {
    const bounds = res.locals.operation?.body?.bounds;
    // `requestMedia` is set only where the body was not read on the JSON-only path (request-body.ts).
    const notJson = res.locals.requestMedia !== undefined && res.locals.requestMedia.kind !== 'json';
    if (bounds !== undefined && req.body !== undefined && !notJson) req.body = boundBody(req.body, bounds);
    next();
  };
}
