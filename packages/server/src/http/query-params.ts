// Query parameters read as each one's `style` and `explode` write them (the generated table's
// `queryParams`, OpenAPI's defaults filled in at generate time): an array exploded (`form`,
// `?status=a&status=b`, one value per occurrence) or not (`?tags=a,b`, `spaceDelimited`,
// `pipeDelimited`: one value split on its delimiter), and a `deepObject` (`?filter[color]=red`) as an
// object. The values reach the validator (which checks and coerces them in place, and whose refusals
// the error mapper words as the service's own 400) and then the handler in those shapes; with request
// validation off, the handler still gets arrays and objects. Scalars stay as express's simple parser
// reads them: an operation with scalar parameters only (every operation of the product) costs a look
// at its parameters' shapes and nothing else.
//
// A delimited list is split after percent-decoding, as the validator splits it: `tags=a%2Cb` (how
// URLSearchParams writes `a,b`) is two values, so a value cannot itself hold the delimiter. An empty
// value (`?tags=`) is left as the empty string, which the validator refuses as such.
import { unescape as percentDecoded } from 'node:querystring';
import type { Request, RequestHandler } from 'express';
import type { OperationEntry } from './locals.js';

type QueryParameter = OperationEntry['queryParams'][number];

const delimiters: Record<QueryParameter['style'], string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|', deepObject: ',' };

/** `a+b%20c` -> `a b c`, leniently (a malformed escape stays as written), as express's parser decodes. */
function decode(text: string): string {
  return percentDecoded(text.replace(/\+/g, ' '));
}

/** The query string's pairs, names and values decoded. */
function pairsOf(req: Request): Array<[string, string]> {
  const url = req.originalUrl;
  const start = url.indexOf('?');
  if (start < 0) return [];
  const pairs: Array<[string, string]> = [];
  for (const pair of url.slice(start + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    pairs.push(equals < 0 ? [decode(pair), ''] : [decode(pair.slice(0, equals)), decode(pair.slice(equals + 1))]);
  }
  return pairs;
}

/** The array a parameter's occurrences write; undefined when it is absent or written empty. */
function arrayValue(parameter: QueryParameter, values: readonly string[]): string[] | string | undefined {
  if (values.length === 0) return undefined;
  if (values.length === 1 && values[0] === '') return '';
  if (parameter.explode) return [...values];
  return values.flatMap((value) => value.split(delimiters[parameter.style]));
}

/** `filter[color]=red&filter[size]=3` -> `{color: 'red', size: '3'}`; the bracketed names are consumed. */
function deepObjectValue(name: string, pairs: ReadonlyArray<[string, string]>, query: Record<string, unknown>): Record<string, unknown> | undefined {
  const prefix = `${name}[`;
  const entries: Array<[string, unknown]> = [];
  for (const [key, value] of pairs) {
    if (!key.startsWith(prefix) || !key.endsWith(']')) continue;
    const property = key.slice(prefix.length, -1);
    // A nested bracket (`filter[a][b]`) is not deepObject: left as written, for the validator to refuse.
    if (property.includes('[') || property.includes(']')) continue;
    delete query[key];
    const seen = entries.find(([known]) => known === property);
    if (seen === undefined) entries.push([property, value]);
    else seen[1] = [...[seen[1]].flat(), value];
  }
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function isScalar(parameter: QueryParameter): boolean {
  return parameter.shape === 'scalar';
}

export function styledQueryParams(): RequestHandler {
  return (req, res, next) => {
    const parameters = res.locals.operation?.queryParams;
    if (parameters === undefined || parameters.every(isScalar)) {
      next();
      return;
    }
    const pairs = pairsOf(req);
    // express 5's `req.query` parses anew on every read: the shaped copy is set as the request's own.
    const query = { ...(req.query as Record<string, unknown>) };
    for (const parameter of parameters) {
      if (parameter.shape === 'array') {
        const value = arrayValue(
          parameter,
          pairs.filter(([key]) => key === parameter.name).map(([, written]) => written),
        );
        if (value !== undefined) query[parameter.name] = value;
      } else if (parameter.style === 'deepObject') {
        const value = deepObjectValue(parameter.name, pairs, query);
        if (value !== undefined) query[parameter.name] = value;
      }
    }
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    next();
  };
}
