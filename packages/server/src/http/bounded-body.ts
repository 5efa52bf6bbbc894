// Keeps the cost of validating a body proportional to the spec's limits, not to the body's size. Ajv
// with allErrors (needed to report the first problem in body order) reports every element of an
// over-long array and every unknown property: 1 MiB of `{"items":[{},{},...]}` made a million problems
// and seconds of CPU. Before the validator runs, an array longer than its `maxItems` is cut to
// `maxItems + 1` elements and an object keeps only its first unknown property. Such a body is invalid
// either way, and the first problem in body order stays the same (the array's own `maxItems` problem,
// or the first unknown property, precedes everything that was cut), so the answer does not change.
import type { RequestHandler } from 'express';
import { loadSpec, resolveRef, type OpenApiDocument } from '@invoice-api/contract';
import type { OperationEntry } from './locals.js';

type Schema = Record<string, unknown>;

/** The JSON request body schema of an operation, or undefined when it takes no body. */
export function requestBodySchema(spec: OpenApiDocument, operation: OperationEntry): Schema | undefined {
  const operationObject = resolveRef(spec, spec.paths[operation.path]?.[operation.method.toLowerCase()]);
  const requestBody = resolveRef(spec, operationObject?.requestBody);
  const content = resolveRef(spec, requestBody?.content);
  return resolveRef(spec, resolveRef(spec, content?.['application/json'])?.schema);
}

/** `value` with over-long arrays cut and surplus unknown properties dropped; `value` itself if nothing was. */
export function boundToSchema(spec: OpenApiDocument, value: unknown, schemaOrReference: unknown): unknown {
  const schema = resolveRef(spec, schemaOrReference);
  if (schema === undefined) return value;

  if (Array.isArray(value)) {
    const limit = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
    const kept = limit !== undefined && value.length > limit + 1 ? value.slice(0, limit + 1) : value;
    let changed = kept !== value;
    const elements = kept.map((element: unknown) => {
      const bounded = boundToSchema(spec, element, schema.items);
      if (bounded !== element) changed = true;
      return bounded;
    });
    return changed ? elements : value;
  }

  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const closed = schema.additionalProperties === false;
    const result: Record<string, unknown> = {};
    let changed = false;
    let unknownSeen = false;
    for (const [key, entry] of Object.entries(value)) {
      const known = Object.hasOwn(properties, key);
      if (!known && closed) {
        if (unknownSeen) {
          changed = true;
          continue;
        }
        unknownSeen = true;
      }
      const propertySchema = known ? properties[key] : schema.additionalProperties;
      const bounded = boundToSchema(spec, entry, propertySchema);
      if (bounded !== entry) changed = true;
      result[key] = bounded;
    }
    return changed ? result : value;
  }
  return value;
}

/** The middleware: runs between the body parser and the validator. */
export function boundedBody(): RequestHandler {
  const spec = loadSpec();
  const schemas = new Map<string, Schema | undefined>();
  return (req, res, next) => {
    const operation = res.locals.operation;
    if (operation === undefined || req.body === undefined) {
      next();
      return;
    }
    if (!schemas.has(operation.operationId)) schemas.set(operation.operationId, requestBodySchema(spec, operation));
    const schema = schemas.get(operation.operationId);
    if (schema !== undefined) req.body = boundToSchema(spec, req.body, schema);
    next();
  };
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
