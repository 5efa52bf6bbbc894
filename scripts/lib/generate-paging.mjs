// Which operations page, and how, read from the bundled spec at generate time for the client's paging
// helper (packages/client/src/paging.ts). The API's paging conventions are names: an operation pages
// when its request (query parameters, or the JSON body's properties) has `limit` and `offset` or
// `cursor`. From its 200 answer this reads the one array property (the items), and where the answer
// says that more follows: `next_cursor`, `has_more` and `total`, at the top level or one object down
// (`pagination.next_cursor`). An operation that takes `cursor` but answers no `next_cursor`, or whose
// answer has no single items array, fails the generation: the helper could not page it right. An
// operation whose 200 answer is not JSON (a CSV export, a file) does not page, whatever its request
// takes: there are no items to count in it.
import { isRecord, resolveRef } from '../../packages/contract/src/json-nodes.mjs';

const methods = ['get', 'put', 'post', 'delete', 'patch'];

class PagingError extends Error {
  constructor(message) {
    super(`paging: ${message}`);
  }
}

/** Parameters of the path item and the operation (the operation's win), resolved. */
function parametersOf(spec, pathItem, operation) {
  const byKey = new Map();
  for (const source of [pathItem.parameters, operation.parameters]) {
    for (const raw of source ?? []) {
      const parameter = resolveRef(spec, raw);
      if (parameter !== undefined) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

/** The request's paging inputs: where they go (query or body) and their schemas by name. */
function requestInputs(spec, pathItem, operation) {
  const parameters = parametersOf(spec, pathItem, operation);
  const query = Object.fromEntries(
    parameters.filter((parameter) => parameter.in === 'query').map((parameter) => [parameter.name, resolveRef(spec, parameter.schema) ?? {}]),
  );
  const body = resolveRef(spec, resolveRef(spec, operation.requestBody)?.content?.['application/json']?.schema);
  const bodyProperties = Object.fromEntries(Object.entries(body?.properties ?? {}).map(([name, schema]) => [name, resolveRef(spec, schema) ?? {}]));
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
  return { query, bodyProperties, pathParameters };
}

function isPaging(inputs) {
  return 'limit' in inputs && ('offset' in inputs || 'cursor' in inputs);
}

/** Whether the 200 answer has a body but no JSON one (a file, a text): nothing of it pages. */
function answersOtherThanJson(spec, operation) {
  const content = resolveRef(spec, operation.responses?.['200'])?.content;
  return isRecord(content) && Object.keys(content).length > 0 && content['application/json'] === undefined;
}

/** The 200 answer's JSON schema, resolved. */
function successSchema(spec, operation) {
  const response = resolveRef(spec, operation.responses?.['200']);
  return resolveRef(spec, response?.content?.['application/json']?.schema);
}

/** The path to the first property named `name`, at the top of `schema` or one object below it. */
function findProperty(spec, schema, name) {
  const properties = schema?.properties ?? {};
  if (name in properties) return [name];
  for (const [key, value] of Object.entries(properties)) {
    const nested = resolveRef(spec, value);
    if (nested?.type === 'object' && isRecord(nested.properties) && name in nested.properties) return [key, name];
  }
  return undefined;
}

/** @param {any} spec the bundled spec */
export function pagingTable(spec) {
  const table = {};
  for (const pathItem of Object.values(spec.paths ?? {})) {
    for (const method of methods) {
      const operation = pathItem[method];
      if (!isRecord(operation) || typeof operation.operationId !== 'string') continue;
      const { operationId } = operation;
      const { query, bodyProperties, pathParameters } = requestInputs(spec, pathItem, operation);
      const location = isPaging(bodyProperties) ? 'body' : isPaging(query) ? 'query' : undefined;
      if (location === undefined || answersOtherThanJson(spec, operation)) continue;
      if (pathParameters.length > 0)
        throw new PagingError(`${operationId} pages but has path parameters (${pathParameters.join(', ')}), which the paging helper does not pass`);
      const inputs = location === 'body' ? bodyProperties : query;
      const answer = successSchema(spec, operation);
      const arrays = Object.entries(answer?.properties ?? {}).filter(([, schema]) => resolveRef(spec, schema)?.type === 'array');
      if (arrays.length !== 1)
        throw new PagingError(`${operationId} pages, so its 200 answer needs exactly one array property (its items); found ${arrays.length}`);
      const nextCursor = findProperty(spec, answer, 'next_cursor');
      if ('cursor' in inputs && nextCursor === undefined) throw new PagingError(`${operationId} takes a cursor but its 200 answer has no next_cursor`);
      const limit = inputs.limit;
      if (typeof limit.default !== 'number') throw new PagingError(`${operationId}'s limit needs a default: a page shorter than it is the last`);
      table[operationId] = {
        request: location,
        items: arrays[0][0],
        limit: { name: 'limit', default: limit.default, ...(typeof limit.maximum === 'number' ? { maximum: limit.maximum } : {}) },
        offset: 'offset' in inputs ? 'offset' : null,
        cursor: 'cursor' in inputs ? { request: 'cursor', response: nextCursor } : null,
        hasMore: findProperty(spec, answer, 'has_more') ?? null,
        total: findProperty(spec, answer, 'total') ?? null,
      };
    }
  }
  return table;
}

/** The generated TypeScript module; `header` is the generator's "do not edit" line. */
export function clientPagingModule(spec, header) {
  return `${header}
/**
 * The operations that page, from the spec: where the paging inputs go (\`request\`: the JSON body or
 * the query), the items array of the answer, the limit (its default, which a caller may change), the
 * offset and cursor inputs, and where the answer says more follows (\`cursor.response\`, \`hasMore\`,
 * \`total\`: paths into the answer, or null where the operation answers no such thing).
 */
export const pagingTable = ${JSON.stringify(pagingTable(spec), null, 2)} as const;
`;
}
