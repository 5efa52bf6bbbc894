// TanStack Query options for every operation, generated from the operation table, the paging table
// and each write's `x-invalidates` (openapi/README.md), for `@invoice-api/client/query`:
//   reads (GET, and any operation whose scopes are all `:read`, such as the search): a query key and
//     `{ queryKey, queryFn }`; the ones that page (generate-paging.mjs) also an infinite query;
//   writes: a mutation whose `onSuccess` invalidates the reads its `x-invalidates` names.
// Names follow hey-api's TanStack plugin (`getInvoiceOptions`, `getInvoiceQueryKey`,
// `searchInvoicesInfiniteOptions`, `createInvoiceMutation`). Arguments are the request's parts under
// the spec's names (`{ path: { invoice_id } }`, `{ query }`, `{ body }`), so a key says what was asked.
// This module decides the signatures and which keys a write invalidates; the runtime (keys, `queryFn`,
// paging, errors) is hand-written in packages/client/src/query/.
import { callOptionsOf } from './generate-client.mjs';

class QueryOptionsError extends Error {
  constructor(message) {
    super(`query options: ${message}`);
  }
}

const literal = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));
/** `a.b` where `b` is an identifier, `a['b-c']` otherwise. */
const member = (object, name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `${object}.${name}` : `${object}[${literal(name)}]`);

/** The same rule as the client's isSafeOperation: a GET, or an operation that only reads. */
export function isRead(entry) {
  return entry.method === 'GET' || entry.method === 'HEAD' || (entry.scopes.length > 0 && entry.scopes.every((scope) => scope.endsWith(':read')));
}

/** The parts of an operation's request, in the order of its client function's arguments. */
function requestParts(entry) {
  const path = [...entry.pathParams].sort((a, b) => a.segment - b.segment);
  return {
    path,
    query: entry.queryParams.length > 0 ? { required: entry.queryParams.some((parameter) => parameter.required) } : null,
    body: entry.body,
  };
}

/** The TypeScript type of an operation's arguments object. */
function argsType(entry, { bodyType, queryType } = {}) {
  const id = literal(entry.operationId);
  const parts = requestParts(entry);
  const members = [];
  if (parts.path.length > 0) {
    members.push(`path: { ${parts.path.map((parameter) => `${key(parameter.name)}: PathParameter<${id}, ${literal(parameter.name)}>`).join('; ')} }`);
  }
  if (parts.query) members.push(`query${parts.query.required ? '' : '?'}: ${queryType ?? `QueryParams<${id}>`}`);
  if (parts.body) members.push(`body${parts.body.required ? '' : '?'}: ${bodyType ?? `RequestBody<${id}>`}`);
  return members.length > 0 ? `{ ${members.join('; ')} }` : 'Record<string, never>';
}

/** True when every part may be left out: the function's argument gets the default `{}`. */
function allOptional(entry) {
  const parts = requestParts(entry);
  return parts.path.length === 0 && !parts.query?.required && !parts.body?.required;
}

/** The client function's arguments taken from an arguments object named `from`. */
function callArguments(entry, from) {
  const parts = requestParts(entry);
  const list = parts.path.map((parameter) => member(`${from}.path`, parameter.name));
  if (parts.query) list.push(`${from}.query`);
  if (parts.body) list.push(`${from}.body`);
  return list;
}

/**
 * A runtime expression of `x-invalidates` as TypeScript, over the mutation's `variables` and `data`:
 * `$request.path.<name>`, `$request.body#/<pointer>` or `$response.body#/<pointer>`. The compiler then
 * checks that the pointer exists and has the read's parameter type.
 */
function expressionSource(expression, write, where) {
  const pathParameter = /^\$request\.path\.([A-Za-z0-9_-]+)$/.exec(expression);
  if (pathParameter) {
    const name = pathParameter[1];
    if (!write.pathParams.some((parameter) => parameter.name === name)) {
      throw new QueryOptionsError(`${where}: ${expression} names a path parameter ${write.operationId} does not have`);
    }
    return member('variables.path', name);
  }
  const pointer = /^\$(request|response)\.body#((?:\/[^/]+)+)$/.exec(expression);
  if (pointer) {
    if (pointer[1] === 'request' && !write.body) throw new QueryOptionsError(`${where}: ${expression}, but ${write.operationId} takes no body`);
    const names = pointer[2]
      .slice(1)
      .split('/')
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    return names.reduce(member, pointer[1] === 'request' ? 'variables.body' : 'data');
  }
  throw new QueryOptionsError(`${where}: "${expression}" is not one of $request.path.<name>, $request.body#/<pointer>, $response.body#/<pointer>`);
}

/** Each write's `x-invalidates`, checked: `[{ operationId, parameters: { name: TypeScript } | null }]`. */
export function invalidationTable(spec, table) {
  const extensions = {};
  for (const pathItem of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(pathItem)) {
      if (typeof operation === 'object' && operation !== null && typeof operation.operationId === 'string') {
        extensions[operation.operationId] = operation['x-invalidates'];
      }
    }
  }
  const invalidations = {};
  for (const entry of Object.values(table)) {
    const declared = extensions[entry.operationId];
    const where = `${entry.operationId} x-invalidates`;
    if (isRead(entry)) {
      if (declared !== undefined) throw new QueryOptionsError(`${where}: a read makes nothing stale; only writes declare x-invalidates`);
      continue;
    }
    if (!Array.isArray(declared) || declared.length === 0) {
      throw new QueryOptionsError(`${entry.operationId} is a write: it needs x-invalidates, the reads it makes stale (openapi/README.md)`);
    }
    invalidations[entry.operationId] = declared.map((item, index) => {
      const at = `${where}[${index}]`;
      const target = table[item?.operationId];
      if (target === undefined) throw new QueryOptionsError(`${at}: no operation ${item?.operationId}`);
      if (!isRead(target)) throw new QueryOptionsError(`${at}: ${target.operationId} is not a read`);
      if (item.parameters === undefined) return { operationId: target.operationId, parameters: null };
      const wanted = target.pathParams.map((parameter) => parameter.name).sort();
      const given = Object.keys(item.parameters ?? {}).sort();
      if (wanted.join() !== given.join()) {
        throw new QueryOptionsError(
          `${at}: parameters must be exactly ${target.operationId}'s path parameters (${wanted.join(', ') || 'none'}), got ${given.join(', ') || 'none'}`,
        );
      }
      const parameters = Object.fromEntries(given.map((name) => [name, expressionSource(item.parameters[name], entry, `${at}.parameters.${name}`)]));
      return { operationId: target.operationId, parameters };
    });
  }
  return invalidations;
}

function readMembers(entry, paging) {
  const id = entry.operationId;
  const quoted = literal(id);
  const resource = literal(entry.tag);
  const fallback = allOptional(entry) ? ' = {}' : '';
  const call = (from) => `api.${id}(${[...callArguments(entry, from), '{ signal }'].join(', ')})`;
  // Written out rather than inferred: a declaration file would otherwise spell out TanStack's DataTag
  // with symbols it cannot name, and the packed types would not compile.
  const keyType = `ReadQueryKey<${resource}, ${quoted}, QueryArgs[${quoted}]>`;
  const infiniteKeyType = `InfiniteQueryKey<${resource}, ${quoted}, InfiniteQueryArgs[${quoted}]>`;
  const members = [
    `    /** The query key of \`${id}\` with these arguments: \`[${entry.tag}, ${id}, args]\`. */
    ${id}QueryKey: (args: QueryArgs[${quoted}]${fallback}): ${keyType} => queryKey(${resource}, ${quoted}, args),`,
    `    /** \`{ queryKey, queryFn }\` of \`${entry.method} ${entry.path}\`: the data is the 200 body; an error answer throws ApiCallError. */
    ${id}Options: (args: QueryArgs[${quoted}]${fallback}): ReadOptions<${quoted}, ${keyType}> => readOptions(queryKey(${resource}, ${quoted}, args), (signal) => ${call('args')}),`,
  ];
  if (paging) {
    const how = paging.cursor ? `by cursor (\`${paging.cursor.response.join('.')}\`)` : 'by offset';
    const location = paging.request === 'body' ? 'body' : 'query';
    members.push(
      `    /** The query key of \`${id}\`'s infinite list from these arguments: \`[${entry.tag}, ${id}, args, 'infinite']\`. */
    ${id}InfiniteQueryKey: (args: InfiniteQueryArgs[${quoted}] = {}): ${infiniteKeyType} => infiniteQueryKey(${resource}, ${quoted}, args),`,
      `    /** Every page of \`${id}\`, ${how}: \`{ queryKey, queryFn, initialPageParam, getNextPageParam }\`. */
    ${id}InfiniteOptions: (args: InfiniteQueryArgs[${quoted}] = {}): InfiniteOptions<${quoted}, ${infiniteKeyType}> =>
      infiniteOptions(infiniteQueryKey(${resource}, ${quoted}, args), ${quoted}, args.${location}, (request, signal) => api.${id}(request, { signal })),`,
    );
  }
  return members;
}

function invalidatedKey(target, parameters) {
  const resource = literal(target.tag);
  const quoted = literal(target.operationId);
  if (parameters === null) return `operationKey(${resource}, ${quoted})`;
  const path = Object.entries(parameters)
    .map(([name, source]) => `${key(name)}: ${source}`)
    .join(', ');
  return `queryKey(${resource}, ${quoted}, { path: { ${path} } } satisfies QueryArgs[${quoted}])`;
}

function mutationMember(entry, invalidations, table) {
  const id = entry.operationId;
  const quoted = literal(id);
  const keys = invalidations.map((item) => invalidatedKey(table[item.operationId], item.parameters));
  // Unused callback parameters do not compile (noUnusedParameters): name only the ones used.
  const source = keys.join(' ');
  const parameters = `(${source.includes('variables.') ? 'variables' : '_variables'}: MutationVariables[${quoted}], ${source.includes('data.') ? 'data' : '_data'}: SuccessData<${quoted}>)`;
  return `    /** \`{ mutationKey, mutationFn, onSuccess }\` of \`${entry.method} ${entry.path}\`; onSuccess invalidates ${invalidations.map((item) => `\`${item.operationId}\``).join(', ')}. */
    ${id}Mutation: (): OperationMutationOptions<${quoted}, MutationVariables[${quoted}]> =>
      mutationOptions(
        operationKey(${literal(entry.tag)}, ${quoted}),
        (variables: MutationVariables[${quoted}]) => api.${id}(${[...callArguments(entry, 'variables'), 'variables.options'].join(', ')}),
        ${parameters} => [${keys.join(', ')}],
      ),`;
}

/**
 * The generated module `packages/client/generated/query.ts`; `header` is the generator's "do not edit" line.
 * @param {any} spec the bundled spec
 * @param {Record<string, any>} table the operation table
 * @param {Record<string, any>} paging the paging table (generate-paging.mjs)
 */
export function queryOptionsModule(spec, table, paging, header) {
  const invalidations = invalidationTable(spec, table);
  const entries = Object.values(table);
  const reads = entries.filter(isRead);
  const writes = entries.filter((entry) => !isRead(entry));
  const argsLines = reads.map((entry) => `  ${entry.operationId}: ${argsType(entry)};`);
  const infiniteLines = reads
    .filter((entry) => paging[entry.operationId])
    .map(
      (entry) =>
        `  ${entry.operationId}: ${argsType(entry, { bodyType: `PageRequest<${literal(entry.operationId)}>`, queryType: `PageRequest<${literal(entry.operationId)}>` })};`,
    );
  const variablesLines = writes.map((entry) => {
    const options = callOptionsOf(entry)
      .parameter.replace(/^opts/, 'options')
      .replace(/: CallOptions/, ': MutationCallOptions');
    const type = argsType(entry);
    return `  ${entry.operationId}: ${type === 'Record<string, never>' ? `{ ${options} }` : `${type.slice(0, -2)}; ${options} }`};`;
  });
  const members = [
    ...reads.flatMap((entry) => readMembers(entry, paging[entry.operationId])),
    ...writes.map((entry) => mutationMember(entry, invalidations[entry.operationId], table)),
  ];
  const optionTypes = ['IdempotencyKeyOption', 'IfMatchOption'].filter((type) => variablesLines.some((line) => line.includes(type)));
  return `${header}
import type { ApiClient } from '../src/client.js';
import type { PageRequest } from '../src/paging.js';
import { infiniteOptions, infiniteQueryKey, type InfiniteOptions, type InfiniteQueryKey } from '../src/query/infinite.js';
import { operationKey, queryKey, type ReadQueryKey } from '../src/query/keys.js';
import { mutationOptions, type MutationCallOptions, type OperationMutationOptions } from '../src/query/mutation.js';
import { readOptions, type ReadOptions } from '../src/query/read.js';
${optionTypes.length > 0 ? `import type { ${optionTypes.join(', ')} } from '../src/transport.js';\n` : ''}import type { PathParameter, QueryParams, RequestBody, SuccessData } from '../src/types.js';

/** What each read's options and key take: its request parts under the spec's names. */
export interface QueryArgs {
${argsLines.join('\n')}
}

/** What each paged read's infinite options take: the first page's request, without the cursor (the pages send it). */
export interface InfiniteQueryArgs {
${infiniteLines.join('\n')}
}

/** The variables of each write's mutation: its request parts, and the call options it takes. */
export interface MutationVariables {
${variablesLines.join('\n')}
}

/** The resource (the operation's tag) that begins every query key of an operation. */
export const queryResources = {
${entries.map((entry) => `  ${entry.operationId}: ${literal(entry.tag)},`).join('\n')}
} as const;

/** Every operation's query options, keys and mutations over one client (\`createQueryOptions\`). */
export function generatedQueryOptions(api: ApiClient) {
  return {
${members.join('\n')}
  };
}
`;
}
