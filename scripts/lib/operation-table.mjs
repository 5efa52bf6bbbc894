// The operation table: every fact the service and the client generator need about each operation,
// derived once from the bundled spec at generate time, so that nothing downstream walks the spec again.
// The shape of an entry is the agreed interface (see operation-table.d.mts); fields may be added,
// never renamed.
import { isRecord, resolveRef } from '../../packages/contract/src/json-nodes.mjs';

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
      const statuses = Object.keys(operation.responses).map(Number).sort((a, b) => a - b);
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
        queryParams: queryParams(spec, parameters),
        headerParams: headerParams(parameters),
        body: requestBody(spec, operation, where),
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

function queryParams(spec, parameters) {
  return parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => {
      const schema = resolveRef(spec, parameter.schema) ?? {};
      return { name: parameter.name, required: parameter.required === true, ...(schema.default === undefined ? {} : { default: schema.default }) };
    });
}

/**
 * The request headers the operation declares (`Idempotency-Key`, `If-Match`, `X-Request-Id`), in
 * declaration order: the client generator gives the ones it knows a call option of their own.
 */
function headerParams(parameters) {
  return parameters
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => ({ name: parameter.name, required: parameter.required === true }));
}

/** Whether a JSON body is required, whether it must be an object, and its bounds; null without body. */
function requestBody(spec, operation, where) {
  const body = resolveRef(spec, operation.requestBody);
  if (body === undefined) return null;
  const schema = resolveRef(spec, resolveRef(spec, body.content?.['application/json'])?.schema);
  return {
    required: body.required === true,
    object: schema?.type === 'object',
    bounds: bodyBounds(spec, schema, [], where) ?? {},
  };
}

/**
 * What bounded-body.ts needs to keep validation cost proportional to the spec's limits: along
 * `properties`, `additionalProperties` and `items`, every array's `maxItems` and every closed object's
 * property names. Subtrees that hold neither are left out, so the service walks only where a bound
 * can apply. Undefined when nothing in the schema bounds anything.
 */
function bodyBounds(spec, schemaOrReference, stack, where) {
  const schema = resolveRef(spec, schemaOrReference);
  if (schema === undefined) return undefined;
  if (stack.includes(schema)) throw new Error(`${where}: the request body schema is recursive, which bounded bodies do not support`);
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
  readonly queryParams: ReadonlyArray<{ readonly name: string; readonly required: boolean; readonly default?: unknown }>;
  /** The request headers the operation declares, e.g. \`Idempotency-Key\`, \`If-Match\`, \`X-Request-Id\`. */
  readonly headerParams: ReadonlyArray<{ readonly name: string; readonly required: boolean }>;
  /** Null when the operation takes no body; \`object\`: the JSON body must be an object. */
  readonly body: { readonly required: boolean; readonly object: boolean; readonly bounds: BodyBounds } | null;
}

/** Every operation of the spec, keyed by operationId. */
export const operationTable = ${JSON.stringify(table, null, 2)} as const satisfies Record<string, OperationFacts>;

export type OperationId = keyof typeof operationTable;

/** The rate-limit groups the spec's operations name (\`x-rate-limit\`). */
export type RateLimitGroup = (typeof operationTable)[OperationId]['rateLimitGroup'];
`;
}
