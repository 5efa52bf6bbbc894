// Path ids are checked as the client wrote them, before the validator sees them: the validator coerces
// a path parameter with Number(), so `1e3` became 1000, `+5` 5 and `0x10` 16. A path id is a positive
// integer written in plain digits without a leading zero (`007` is not an id), at most the schema's
// maximum: anything else is 400 invalid_request naming the parameter. Which parameters are ids comes
// from the spec (every `in: path` parameter whose schema is an integer with a minimum of at least 1),
// so there is no second list to keep in step. The checked numbers go to res.locals.pathIds, which the
// router hands to the handler (whatever the validator made of the strings).
import type { RequestHandler } from 'express';
import { loadSpec, operationTable, resolveRef, type OpenApiDocument, type SpecNode } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import type { OperationEntry } from './locals.js';

/** The largest id a PostgreSQL `integer` holds: the bound when the schema states none. */
const defaultMaximum = 2_147_483_647;

export interface PathIdParameter {
  name: string;
  /** Index of the `{name}` segment in the path split on `/`. */
  segment: number;
  maximum: number;
}


/** The path id parameters of an operation, from the spec's path item and operation parameters. */
export function pathIdParameters(spec: OpenApiDocument, operation: Pick<OperationEntry, 'path' | 'method'>): PathIdParameter[] {
  const pathItem = resolveRef(spec, spec.paths[operation.path]);
  const operationObject = resolveRef(spec, pathItem?.[operation.method.toLowerCase()]);
  // Operation parameters override path-item parameters of the same name and location.
  const byName = new Map<string, SpecNode>();
  for (const source of [pathItem?.parameters, operationObject?.parameters]) {
    if (!Array.isArray(source)) continue;
    for (const reference of source) {
      const parameter = resolveRef(spec, reference);
      if (parameter !== undefined && parameter.in === 'path' && typeof parameter.name === 'string') byName.set(parameter.name, parameter);
    }
  }
  const segments = operation.path.split('/');
  const ids: PathIdParameter[] = [];
  for (const [name, parameter] of byName) {
    const schema = resolveRef(spec, parameter.schema);
    if (schema?.type !== 'integer' || typeof schema.minimum !== 'number' || schema.minimum < 1) continue;
    const segment = segments.indexOf(`{${name}}`);
    if (segment < 0) continue;
    ids.push({ name, segment, maximum: typeof schema.maximum === 'number' ? Math.min(schema.maximum, defaultMaximum) : defaultMaximum });
  }
  return ids.sort((a, b) => a.segment - b.segment);
}

/** The id a path segment (still percent-encoded) holds, or undefined when it is not a valid id. */
export function parsePathId(raw: string, maximum: number): number | undefined {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // Digits only, the first not 0; 10 digits at most keeps Number() exact before the bound check.
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= maximum ? value : undefined;
}

export function checkPathIds(): RequestHandler {
  const spec = loadSpec();
  const byOperation = new Map<string, PathIdParameter[]>(
    Object.values(operationTable).map((operation) => [operation.operationId, pathIdParameters(spec, operation)]),
  );
  return (req, res, next) => {
    const operation = res.locals.operation;
    const parameters = operation === undefined ? undefined : byOperation.get(operation.operationId);
    if (parameters === undefined || parameters.length === 0) {
      next();
      return;
    }
    const segments = req.path.split('/');
    const ids: Record<string, number> = {};
    for (const parameter of parameters) {
      const value = parsePathId(segments[parameter.segment] ?? '', parameter.maximum);
      if (value === undefined) {
        const issue = `must be a positive integer written in digits, without a sign, exponent or leading zero, at most ${parameter.maximum}`;
        next(ApiError.invalid(parameter.name, issue, `The path parameter '${parameter.name}' must be a positive integer.`));
        return;
      }
      ids[parameter.name] = value;
    }
    res.locals.pathIds = ids;
    next();
  };
}

