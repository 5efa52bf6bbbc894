// A request's query read as the operation table says each parameter is written (`style`, `explode`,
// `shape`: scripts/lib/media-shapes.mjs): `?status=a&status=b` (form, exploded array),
// `?tags=a,b` (form, not exploded), `?ids=1%202` / `?ids=1|2` (space and pipe delimited),
// `?filter[color]=red&filter[size]=3` (deepObject), `?limit=10` (a scalar: the last one written).
// Values are coerced as the service's validator coerces text for a schema: numbers and booleans.
import type { OperationFacts } from '@invoice-api/contract';

type QueryParameter = OperationFacts['queryParams'][number];

/** A query value as the validator coerces it: `true`/`false` and finite numbers from their text. */
function coerced(value: string): unknown {
  if (value === 'true' || value === 'false') return value === 'true';
  if (value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

const delimiters = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' } as const;

/** `filter[color]` -> `['filter', 'color']`; undefined for a name without one bracketed key. */
function deepObjectKey(name: string): [string, string] | undefined {
  const match = /^([^[\]]+)\[([^[\]]*)\]$/.exec(name);
  return match?.[1] === undefined || match[2] === undefined ? undefined : [match[1], match[2]];
}

function parameterValue(parameter: QueryParameter, params: URLSearchParams): unknown {
  if (parameter.style === 'deepObject') {
    const object: Record<string, unknown> = {};
    params.forEach((value, name) => {
      const key = deepObjectKey(name);
      if (key?.[0] === parameter.name) object[key[1]] = coerced(value);
    });
    return Object.keys(object).length === 0 ? undefined : object;
  }
  const written = params.getAll(parameter.name);
  if (written.length === 0) return undefined;
  if (parameter.shape !== 'array') return coerced(written[written.length - 1] ?? '');
  const delimiter = delimiters[parameter.style];
  const items = parameter.explode ? written : written.flatMap((value) => value.split(delimiter));
  return items.map(coerced);
}

export interface ReadQuery {
  /** Each parameter written, by name, shaped as its schema takes it. */
  values: Record<string, unknown>;
  /** The first name in the URL that is no parameter of the operation. */
  unknown?: string;
}

export function readQuery(url: URL, parameters: OperationFacts['queryParams']): ReadQuery {
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = parameterValue(parameter, url.searchParams);
    if (value !== undefined) values[parameter.name] = value;
  }
  const deepObjects = new Set(parameters.filter((parameter) => parameter.style === 'deepObject').map((parameter) => parameter.name));
  const names = new Set(parameters.map((parameter) => parameter.name));
  let unknown: string | undefined;
  url.searchParams.forEach((_value, name) => {
    if (unknown !== undefined || names.has(name)) return;
    const key = deepObjectKey(name);
    if (key === undefined || !deepObjects.has(key[0])) unknown = name;
  });
  return unknown === undefined ? { values } : { values, unknown };
}
