// The operation table: every fact the service and the client generator need about each operation,
// derived once from the bundled spec at generate time, so that nothing downstream walks the spec again.
// The shape of an entry is the agreed interface (see operation-table.d.mts); fields may be added,
// never renamed.
import { isRecord, resolveRef } from '../../packages/contract/src/json-nodes.mjs';
import { deprecatedProperties, deprecationNotice, docsLink } from './deprecation.mjs';
import { queryStyle, requestMedia, responseMedia } from './media-shapes.mjs';

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The largest id a PostgreSQL `integer` holds: the bound of a path id whose schema states none. */
export const defaultIdMaximum = 2_147_483_647;

/** @param {Record<string, any>} spec the bundled spec */
export function operationTable(spec) {
  const table = {};
  for (const [path, pathItemOrReference] of Object.entries(spec.paths)) {
    const pathItem = resolveRef(spec, pathItemOrReference) ?? {};
    for (const method of httpMethods) {
      const operation = resolveRef(spec, pathItem[method]);
      if (operation === undefined) continue;
      const where = `${method.toUpperCase()} ${path} (${operation.operationId})`;
      const requirement = (operation.security ?? spec.security ?? [])[0] ?? {};
      const statuses = Object.keys(operation.responses)
        .map(Number)
        .sort((a, b) => a - b);
      const parameters = parametersOf(spec, pathItem, operation);
      table[operation.operationId] = {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        tag: operation.tags[0],
        summary: operation.summary,
        description: operation.description ?? '',
        deprecated: operation.deprecated === true,
        authenticated: Object.keys(requirement).length > 0,
        scopes: Object.values(requirement).flat(),
        rateLimitGroup: rateLimitGroup(operation, where),
        successStatus: Math.min(...statuses.filter((status) => status < 300)),
        statuses,
        pathParams: pathParams(spec, path, parameters),
        queryParams: queryParams(spec, parameters, where),
        headerParams: headerParams(spec, parameters),
        body: requestBody(spec, operation, where),
        requestMedia: requestMedia(spec, operation, where),
        responseMedia: responseMedia(spec, operation, where),
        deprecation: deprecation(spec, operation, parameters, where),
      };
    }
  }
  return table;
}

/**
 * The operation's `x-rate-limit`: the name of the budget it counts against (`search`, `standard`,
 * `none`). The numbers live in the service's configuration; the spec says which budget applies.
 */
function rateLimitGroup(operation, where) {
  const group = operation['x-rate-limit'];
  if (typeof group !== 'string' || !/^[a-z][a-z0-9-]*$/.test(group)) {
    throw new Error(`${where}: x-rate-limit must name a rate-limit group (e.g. standard, search, none), got ${JSON.stringify(group)}`);
  }
  return group;
}

/** Path-item parameters, overridden by operation parameters of the same name and location. */
function parametersOf(spec, pathItem, operation) {
  const byKey = new Map();
  for (const source of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(source)) continue;
    for (const reference of source) {
      const parameter = resolveRef(spec, reference);
      if (parameter !== undefined) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

/**
 * Path parameters with the index of their segment in the path split on `/`. An id is an integer
 * with a minimum of at least 1: the service reads it as plain digits, at most `maximum`.
 */
function pathParams(spec, path, parameters) {
  const segments = path.split('/');
  return parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => {
      const segment = segments.indexOf(`{${parameter.name}}`);
      if (segment < 0) throw new Error(`${path}: the path parameter ${parameter.name} is not in the path`);
      const schema = resolveRef(spec, parameter.schema) ?? {};
      const id = schema.type === 'integer' && typeof schema.minimum === 'number' && schema.minimum >= 1;
      if (!id) return { name: parameter.name, segment, id: false };
      const maximum = typeof schema.maximum === 'number' ? Math.min(schema.maximum, defaultIdMaximum) : defaultIdMaximum;
      return { name: parameter.name, segment, id: true, maximum };
    })
    .sort((a, b) => a.segment - b.segment);
}

function queryParams(spec, parameters, where) {
  return parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => {
      const schema = resolveRef(spec, parameter.schema) ?? {};
      return {
        name: parameter.name,
        required: parameter.required === true,
        ...(schema.default === undefined ? {} : { default: schema.default }),
        ...queryStyle(spec, parameter, where),
      };
    });
}

/**
 * The request headers the operation declares (`Idempotency-Key`, `If-Match`, `X-Request-Id`), in
 * declaration order, with the schema's `pattern` where it has one: the client generator gives the ones
 * it knows a call option of their own; the service reads which operations take a header, and what a
 * well-formed value is, from here.
 */
function headerParams(spec, parameters) {
  return parameters
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => {
      const schema = resolveRef(spec, parameter.schema) ?? {};
      return { name: parameter.name, required: parameter.required === true, ...(typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {}) };
    });
}

/**
 * What the operation's answers announce as deprecated (scripts/lib/deprecation.mjs): the operation
 * itself, each deprecated parameter and each deprecated request body property, with their dates, and
 * the link to the operation's section in /docs. Null when nothing in the request is deprecated.
 * Deprecated response properties are not here: the service sends them to every caller alike, so only
 * the docs and `pnpm spec:diff` know of them.
 */
function deprecation(spec, operation, parameters, where) {
  const notice = deprecationNotice(operation, where);
  const deprecatedParameters = parameters.flatMap((parameter) => {
    const found = deprecationNotice(parameter, `${where} ${parameter.in} parameter ${parameter.name}`);
    return found === null ? [] : [{ in: parameter.in, name: parameter.name, ...found }];
  });
  const body = resolveRef(spec, operation.requestBody);
  const schema = resolveRef(spec, body?.content?.['application/json'])?.schema;
  const properties = schema === undefined ? [] : deprecatedProperties(spec, schema, `${where} request body`);
  if (notice === null && deprecatedParameters.length === 0 && properties.length === 0) return null;
  return { link: docsLink(operation.operationId), operation: notice, parameters: deprecatedParameters, requestProperties: properties };
}

/** Whether a JSON body is required, whether it must be an object, and its bounds; null without body. */
function requestBody(spec, operation, where) {
  const body = resolveRef(spec, operation.requestBody);
  if (body === undefined) return null;
  const schemaOrReference = resolveRef(spec, body.content?.['application/json'])?.schema;
  const schema = resolveRef(spec, schemaOrReference);
  const reference = typeof schemaOrReference?.$ref === 'string' ? schemaOrReference.$ref : '';
  return {
    required: body.required === true,
    // The named component schema of the body, when it is one (`InvoiceSearchRequest`): lets the
    // service treat every operation taking that schema alike, without naming operations.
    schemaName: reference.startsWith('#/components/schemas/') ? reference.slice('#/components/schemas/'.length) : null,
    object: schema?.type === 'object',
    bounds: withoutScalars(bodyBounds(spec, schema, [], where)) ?? {},
  };
}

/**
 * What bounded-body.ts needs to keep validation cost proportional to the spec's limits: every array's
 * `maxItems` and every closed object's property names, along `properties`, `additionalProperties` and
 * `items`, and through `allOf` (every subschema applies: the tightest bound wins) and `oneOf`/`anyOf`
 * (one branch applies, unknown which: the loosest bound over the branches that accept that kind of
 * value wins, so that a cut value stays invalid under every branch). Subtrees that hold neither are
 * left out, so the service walks only where a bound can apply. Undefined when nothing bounds anything.
 */
function bodyBounds(spec, schemaOrReference, stack, where) {
  const schema = resolveRef(spec, schemaOrReference);
  if (schema === undefined) return undefined;
  if (stack.includes(schema)) throw new Error(`${where}: the request body schema is recursive, which bounded bodies do not support`);
  const kinds = valueKinds(spec, schema);
  if (!kinds.array && !kinds.object) return scalar;
  const inner = [...stack, schema];
  const node = {};
  if (typeof schema.maxItems === 'number') node.maxItems = schema.maxItems;
  const items = bodyBounds(spec, schema.items, inner, where);
  if (items !== undefined) node.items = items;

  const declared = isRecord(schema.properties) ? schema.properties : {};
  const properties = {};
  for (const [name, propertySchema] of Object.entries(declared)) {
    const bounds = bodyBounds(spec, propertySchema, inner, where);
    if (bounds !== undefined) properties[name] = bounds;
  }
  const closed = schema.additionalProperties === false;
  const additional = closed ? undefined : bodyBounds(spec, schema.additionalProperties, inner, where);
  // Which properties are known matters only where unknown ones are cut (closed) or bounded (additional).
  if (closed) node.closed = true;
  if (closed || additional !== undefined) node.known = Object.keys(declared);
  if (Object.keys(properties).length > 0) node.properties = properties;
  if (additional !== undefined) node.additional = additional;

  let bounds = Object.keys(node).length === 0 ? undefined : node;
  for (const subschema of Array.isArray(schema.allOf) ? schema.allOf : []) bounds = tightest(bounds, bodyBounds(spec, subschema, inner, where));
  for (const keyword of ['oneOf', 'anyOf']) {
    if (!Array.isArray(schema[keyword])) continue;
    const branches = schema[keyword].map((branch) => ({ bounds: bodyBounds(spec, branch, inner, where), kinds: valueKinds(spec, branch) }));
    bounds = tightest(bounds, loosest(branches));
  }
  return bounds;
}

/**
 * A schema that accepts neither an array nor an object: nothing in it to cut. It counts as no bound
 * where it stands alone, and as no say in a `oneOf` beside branches that take arrays or objects.
 */
const scalar = Object.freeze({ scalar: true });

/** The bounds as the table holds them: scalar markers dropped. */
function withoutScalars(bounds) {
  if (bounds === undefined || bounds === scalar) return undefined;
  const node = { ...bounds };
  if (node.items !== undefined) node.items = withoutScalars(node.items);
  if (node.items === undefined) delete node.items;
  if (node.additional !== undefined) node.additional = withoutScalars(node.additional);
  if (node.additional === undefined) delete node.additional;
  if (node.properties !== undefined) {
    const properties = Object.fromEntries(
      Object.entries(node.properties)
        .map(([name, value]) => [name, withoutScalars(value)])
        .filter(([, value]) => value !== undefined),
    );
    if (Object.keys(properties).length > 0) node.properties = properties;
    else delete node.properties;
  }
  return Object.keys(node).length === 0 ? undefined : node;
}

/** Whether a schema can accept an array and an object (by its `type`, `const` or `enum`; else both). */
function valueKinds(spec, schemaOrReference) {
  const schema = resolveRef(spec, schemaOrReference) ?? {};
  if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
    const types = [schema.type].flat();
    return { array: types.includes('array'), object: types.includes('object') };
  }
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values !== undefined) return { array: values.some(Array.isArray), object: values.some(isRecord) };
  return { array: true, object: true };
}

/** Bounds that hold under both (every subschema applies): the smaller maxItems, closed if either is. */
function tightest(a, b) {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === scalar || b === scalar) return scalar;
  const node = {};
  const maxItems = [a.maxItems, b.maxItems].filter((value) => value !== undefined);
  if (maxItems.length > 0) node.maxItems = Math.min(...maxItems);
  const items = tightest(a.items, b.items);
  if (items !== undefined) node.items = items;
  const closedKnown = [a, b].filter((bounds) => bounds.closed === true).map((bounds) => bounds.known ?? []);
  if (closedKnown.length > 0) {
    node.closed = true;
    // A property unknown to any closed schema is invalid.
    node.known = closedKnown.reduce((kept, known) => kept.filter((name) => known.includes(name)));
  } else if (a.known !== undefined || b.known !== undefined) {
    node.known = [...new Set([...(a.known ?? []), ...(b.known ?? [])])];
  }
  const names = new Set([...Object.keys(a.properties ?? {}), ...Object.keys(b.properties ?? {})]);
  const properties = {};
  for (const name of names) {
    const merged = tightest(a.properties?.[name], b.properties?.[name]);
    if (merged !== undefined) properties[name] = merged;
  }
  if (Object.keys(properties).length > 0) node.properties = properties;
  const additional = node.closed ? undefined : tightest(a.additional, b.additional);
  if (additional !== undefined) node.additional = additional;
  return Object.keys(node).length === 0 ? undefined : node;
}

/**
 * Bounds that hold whichever branch applies. Arrays: only branches that accept an array count, and
 * an array is bounded only when every one of them bounds it (by the largest maxItems). Objects: closed
 * only when every branch that accepts an object is, with the names any of them knows.
 */
function loosest(candidates) {
  const branches = candidates.filter((branch) => branch.bounds !== scalar);
  if (branches.length === 0) return candidates.length > 0 ? scalar : undefined;
  const arrays = branches.filter((branch) => branch.kinds.array);
  const objects = branches.filter((branch) => branch.kinds.object);
  const node = {};
  if (arrays.length > 0 && arrays.every((branch) => branch.bounds?.maxItems !== undefined)) {
    node.maxItems = Math.max(...arrays.map((branch) => branch.bounds.maxItems));
  }
  if (arrays.length > 0 && arrays.every((branch) => branch.bounds?.items !== undefined)) {
    const items = loosest(arrays.map((branch) => ({ bounds: branch.bounds.items, kinds: { array: true, object: true } })));
    if (items !== undefined) node.items = items;
  }
  if (objects.length > 0 && objects.every((branch) => branch.bounds?.closed === true)) {
    node.closed = true;
    node.known = [...new Set(objects.flatMap((branch) => branch.bounds.known ?? []))];
    const properties = {};
    for (const name of node.known) {
      const holders = objects.filter((branch) => branch.bounds.known?.includes(name));
      if (holders.every((branch) => branch.bounds.properties?.[name] !== undefined)) {
        const merged = loosest(holders.map((branch) => ({ bounds: branch.bounds.properties[name], kinds: { array: true, object: true } })));
        if (merged !== undefined) properties[name] = merged;
      }
    }
    if (Object.keys(properties).length > 0) node.properties = properties;
  } else if (objects.length > 0 && objects.every((branch) => branch.bounds?.properties !== undefined)) {
    // Open objects: a property is bounded only where every branch declares and bounds it.
    const properties = {};
    const names = Object.keys(objects[0].bounds.properties);
    for (const name of names) {
      if (!objects.every((branch) => branch.bounds.properties[name] !== undefined)) continue;
      const merged = loosest(objects.map((branch) => ({ bounds: branch.bounds.properties[name], kinds: { array: true, object: true } })));
      if (merged !== undefined) properties[name] = merged;
    }
    if (Object.keys(properties).length > 0) node.properties = properties;
  }
  return Object.keys(node).length === 0 ? undefined : node;
}

/** The TypeScript module `packages/contract/generated/operations.ts` holds (with the header). */
export function operationTableSource(table) {
  return `
/** A request body's bounds: every array's maxItems and every closed object's known properties (bounded-body.ts). */
export interface BodyBounds {
  /** Arrays: elements beyond maxItems + 1 are cut before validation. */
  readonly maxItems?: number;
  /** Arrays: the bounds of each element. */
  readonly items?: BodyBounds;
  /** Objects: unknown properties beyond the first are dropped before validation. */
  readonly closed?: true;
  /** Objects: the declared property names (present when closed or when \`additional\` is). */
  readonly known?: readonly string[];
  /** Objects: the bounds of the declared properties that have any. */
  readonly properties?: { readonly [name: string]: BodyBounds };
  /** Open objects: the bounds of every property not declared. */
  readonly additional?: BodyBounds;
}

/** A deprecation's two days (\`YYYY-MM-DD\`, as the spec writes them) and the same as epoch seconds (00:00:00 UTC). */
export interface DeprecationNotice {
  /** \`x-deprecated-since\`: the \`Deprecation\` header (RFC 9745). */
  readonly since: string;
  /** \`x-sunset\`: the \`Sunset\` header (RFC 8594); from this day it may be removed. */
  readonly sunset: string;
  readonly deprecatedAt: number;
  readonly sunsetAt: number;
}

/** What a request to the operation may use that is on its way out; see scripts/lib/deprecation.mjs. */
export interface DeprecationFacts {
  /** Where the \`Link: <...>; rel="deprecation"\` points: the operation's section in /docs. */
  readonly link: string;
  /** The operation itself, or null when only parts of its request are deprecated. */
  readonly operation: DeprecationNotice | null;
  readonly parameters: ReadonlyArray<DeprecationNotice & { readonly in: string; readonly name: string }>;
  /** Request body properties by their path of names (\`*\`: every item of an array). */
  readonly requestProperties: ReadonlyArray<DeprecationNotice & { readonly path: readonly string[] }>;
}

/** How one media type of a body is carried (scripts/lib/media-shapes.mjs). */
export type MediaFacts =
  | { readonly mediaType: string; readonly kind: 'json' }
  /** \`text/*\`: a UTF-8 string, sent with \`; charset=utf-8\`. */
  | { readonly mediaType: string; readonly kind: 'text'; readonly charset: 'utf-8'; readonly maxLength?: number }
  /** Any other concrete type: bytes, bounded by the schema's \`maxLength\` where it states one. */
  | { readonly mediaType: string; readonly kind: 'bytes'; readonly maxLength?: number }
  | { readonly mediaType: string; readonly kind: 'multipart'; readonly parts: ReadonlyArray<MultipartPart> };

/** One property of a multipart body: a field, or a file (\`multiple\`: an array of files). */
export type MultipartPart =
  | { readonly name: string; readonly required: boolean; readonly kind: 'field'; readonly multiple: boolean }
  | {
      readonly name: string;
      readonly required: boolean;
      readonly kind: 'file';
      readonly multiple: boolean;
      /** The media types the part may declare (\`encoding.contentType\`); empty: any. */
      readonly contentTypes: readonly string[];
      /** The largest file, in bytes (the schema's \`maxLength\`); absent: the service's configured default. */
      readonly maxLength?: number;
      readonly maxItems?: number;
    };

/** What the spec says about one operation; \`operationTable\` holds one per operationId. */
export interface OperationFacts {
  readonly operationId: string;
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  /** The OpenAPI path template, e.g. \`/api/v1/invoices/{invoice_id}\`. */
  readonly path: string;
  readonly expressPath: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly deprecated: boolean;
  /** False only for operations whose \`security\` is empty (the health check). */
  readonly authenticated: boolean;
  readonly scopes: readonly string[];
  /** The operation's \`x-rate-limit\`: the budget it counts against; the numbers are configuration. */
  readonly rateLimitGroup: string;
  readonly successStatus: number;
  readonly statuses: readonly number[];
  /** \`segment\`: index in the path split on \`/\`. Ids are plain digits from 1 to \`maximum\`. */
  readonly pathParams: ReadonlyArray<{ readonly name: string; readonly segment: number; readonly id: boolean; readonly maximum?: number }>;
  /** \`style\`/\`explode\` as OpenAPI defines them (defaults applied); \`shape\`: the schema's kind of value. */
  readonly queryParams: ReadonlyArray<{
    readonly name: string;
    readonly required: boolean;
    readonly default?: unknown;
    readonly style: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
    readonly explode: boolean;
    readonly shape: 'scalar' | 'array' | 'object';
  }>;
  /** The request headers the operation declares, e.g. \`Idempotency-Key\`, \`If-Match\`, \`X-Request-Id\`. */
  readonly headerParams: ReadonlyArray<{ readonly name: string; readonly required: boolean; readonly pattern?: string }>;
  /** Null when the operation takes no body; \`object\`: the JSON body must be an object. */
  readonly body: { readonly required: boolean; readonly object: boolean; readonly schemaName: string | null; readonly bounds: BodyBounds } | null;
  /** The request body's media types, each with how it is read; null when the operation takes no body. */
  readonly requestMedia: { readonly required: boolean; readonly media: ReadonlyArray<MediaFacts> } | null;
  /** Each documented status (as the spec writes it) with its media types; an empty list: no body. */
  readonly responseMedia: { readonly [status: string]: ReadonlyArray<MediaFacts> };
  /** Null when nothing of the operation is deprecated; else what its answers announce (deprecation.ts in the service). */
  readonly deprecation: DeprecationFacts | null;
}

/** Every operation of the spec, keyed by operationId. */
export const operationTable = ${JSON.stringify(table, null, 2)} as const satisfies Record<string, OperationFacts>;

export type OperationId = keyof typeof operationTable;

/** The rate-limit groups the spec's operations name (\`x-rate-limit\`). */
export type RateLimitGroup = (typeof operationTable)[OperationId]['rateLimitGroup'];
`;
}
