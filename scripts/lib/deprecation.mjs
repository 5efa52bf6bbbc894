// Deprecation in the spec: `deprecated: true` on an operation, a parameter or a schema property, with
// two dates beside it, `x-deprecated-since` (when it is or becomes deprecated: the `Deprecation` header
// of RFC 9745) and `x-sunset` (from when it may be removed: the `Sunset` header of RFC 8594), both
// `YYYY-MM-DD`, read as 00:00:00 UTC of that day. One reader of those keywords, shared by the operation
// table (the service's headers, the client's warning), the published spec (the dates in /docs) and
// `pnpm spec:diff` (removal allowed from the sunset on).
import { isRecord, resolveRef } from '../../packages/contract/src/json-nodes.mjs';

export const sinceKeyword = 'x-deprecated-since';
export const sunsetKeyword = 'x-sunset';

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Seconds since the epoch of 00:00:00 UTC on a `YYYY-MM-DD` day; undefined when it is no such day. */
export function dayToEpochSeconds(text) {
  const match = typeof text === 'string' ? datePattern.exec(text) : null;
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const milliseconds = Date.UTC(year, month - 1, day);
  const date = new Date(milliseconds);
  // 2027-02-30 rolls over to March: not a day of the calendar.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return milliseconds / 1000;
}

/**
 * The deprecation notice a node of the spec carries, checked: null when it is not deprecated, else
 * `{ since, sunset, deprecatedAt, sunsetAt }` (the days as written and as epoch seconds). Throws,
 * naming `where`, on `deprecated: true` without both dates, on a date that is not a `YYYY-MM-DD` day,
 * on a sunset before the deprecation, and on the dates without `deprecated: true`.
 * @param {unknown} node an operation, a parameter or a schema
 * @param {string} where how an error names the node
 */
export function deprecationNotice(node, where) {
  if (!isRecord(node)) return null;
  const deprecated = node.deprecated === true;
  const hasDates = node[sinceKeyword] !== undefined || node[sunsetKeyword] !== undefined;
  if (!deprecated && !hasDates) return null;
  if (!deprecated) throw new Error(`${where}: ${sinceKeyword} and ${sunsetKeyword} belong to something marked deprecated: true`);
  const since = node[sinceKeyword];
  const sunset = node[sunsetKeyword];
  const deprecatedAt = dayToEpochSeconds(since);
  const sunsetAt = dayToEpochSeconds(sunset);
  if (deprecatedAt === undefined) throw new Error(`${where}: deprecated: true needs ${sinceKeyword} as a YYYY-MM-DD day, got ${JSON.stringify(since)}`);
  if (sunsetAt === undefined) throw new Error(`${where}: deprecated: true needs ${sunsetKeyword} as a YYYY-MM-DD day, got ${JSON.stringify(sunset)}`);
  if (sunsetAt < deprecatedAt) throw new Error(`${where}: ${sunsetKeyword} ${sunset} is before ${sinceKeyword} ${since}`);
  return { since, sunset, deprecatedAt, sunsetAt };
}

/**
 * Every deprecated property a request body schema declares, with the path of names that leads to it
 * (`*` for an array's items), through `properties`, `items`, `allOf`, `oneOf` and `anyOf`.
 * @returns {{ path: string[], since: string, sunset: string, deprecatedAt: number, sunsetAt: number }[]}
 */
export function deprecatedProperties(spec, schemaOrReference, where, path = [], stack = []) {
  const schema = resolveRef(spec, schemaOrReference);
  if (schema === undefined || stack.includes(schema)) return [];
  const inner = [...stack, schema];
  const found = [];
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const at = [...path, name];
      const notice = deprecationNotice(resolveRef(spec, property), `${where} property ${at.join('.')}`);
      if (notice !== null) found.push({ path: at, ...notice });
      found.push(...deprecatedProperties(spec, property, where, at, inner));
    }
  }
  if (schema.items !== undefined) found.push(...deprecatedProperties(spec, schema.items, where, [...path, '*'], inner));
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of Array.isArray(schema[keyword]) ? schema[keyword] : []) found.push(...deprecatedProperties(spec, branch, where, path, inner));
  }
  // The same property reached along two branches is one notice.
  const unique = new Map(found.map((entry) => [entry.path.join('\0'), entry]));
  return [...unique.values()];
}

/** The anchor Redoc gives an operation's section in /docs: where the `Link` of a deprecation points. */
export function docsLink(operationId) {
  return `/docs#operation/${operationId}`;
}
