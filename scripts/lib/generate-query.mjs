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
//
// The data of each query and mutation is its operation's success body as the client reads it, typed
// from the same contract as the client (`Contract`: the spec's `operations` and the operation table's
// media facts): a Blob for a file, a string for a text, JSON otherwise; a multipart upload is a write,
// so a mutation, whose variables carry its files. The options call the client's functions through
// `QueryApi`, their signatures written here as generate-client.mjs writes them, so that this module
// imports nothing but the spec's `operations` and the client's sources (and compiles where another
// spec's client is generated, `--out`).
import { callOptionsOf, contractTypesSource, signatureOf } from './generate-client.mjs';

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
    body: entry.requestMedia ?? null,
  };
}

/** The TypeScript type of an operation's arguments object. */
function argsType(entry, { bodyType, queryType } = {}) {
  const id = literal(entry.operationId);
  const parts = requestParts(entry);
  const members = [];
  if (parts.path.length > 0) {
    members.push(
      `path: { ${parts.path.map((parameter) => `${key(parameter.name)}: ContractPathParameter<Contract, ${id}, ${literal(parameter.name)}>`).join('; ')} }`,
    );
  }
  if (parts.query) members.push(`query${parts.query.required ? '' : '?'}: ${queryType ?? `ContractQueryParams<Contract, ${id}>`}`);
  if (parts.body) members.push(`body${parts.body.required ? '' : '?'}: ${bodyType ?? `ContractRequestBody<Contract, ${id}>`}`);
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
    if (pointer[1] === 'request' && !write.requestMedia) throw new QueryOptionsError(`${where}: ${expression}, but ${write.operationId} takes no body`);
    if (pointer[1] === 'request' && write.requestMedia.media.every((facts) => facts.kind !== 'json' && facts.kind !== 'multipart')) {
      throw new QueryOptionsError(`${where}: ${expression} points into a ${write.requestMedia.media[0].mediaType} body, which has no properties`);
    }
    if (pointer[1] === 'response' && !answersJson(write)) {
      throw new QueryOptionsError(`${where}: ${expression} points into ${write.operationId}'s answer, which is not JSON`);
    }
    const names = pointer[2]
      .slice(1)
      .split('/')
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    return names.reduce(member, pointer[1] === 'request' ? 'variables.body' : 'data');
  }
  throw new QueryOptionsError(`${where}: "${expression}" is not one of $request.path.<name>, $request.body#/<pointer>, $response.body#/<pointer>`);
}

/** Whether every success answer of an operation is one JSON body (where `$response.body#/...` can point). */
function answersJson(entry) {
  return Object.entries(entry.responseMedia ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .every(([, media]) => media.length === 1 && media[0].kind === 'json');
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

/** What a read's data is, in words, for its options' comment. */
function dataWords(entry) {
  const kinds = { json: 'JSON', text: 'a string', bytes: 'a Blob', multipart: 'a FormData' };
  const words = Object.entries(entry.responseMedia ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .flatMap(([, media]) =>
      media.length === 0 ? ['nothing'] : media.map((facts) => (facts.kind === 'json' ? 'JSON' : `${kinds[facts.kind]}, ${facts.mediaType}`)),
    );
  return [...new Set(words)].join(' or ');
}

function readMembers(entry, paging) {
  const id = entry.operationId;
  const quoted = literal(id);
  const resource = literal(entry.tag);
  const fallback = allOptional(entry) ? ' = {}' : '';
  const call = (from) => `api.${id}(${[...callArguments(entry, from), '{ signal }'].join(', ')})`;
  // Written out rather than inferred: a declaration file would otherwise spell out TanStack's DataTag
  // with symbols it cannot name, and the packed types would not compile.
  const keyType = `ReadQueryKey<${resource}, ${quoted}, QueryArgs[${quoted}], Contract>`;
  const infiniteKeyType = `InfiniteQueryKey<${resource}, ${quoted}, InfiniteQueryArgs[${quoted}]>`;
  const members = [
    `    /** The query key of \`${id}\` with these arguments: \`[${entry.tag}, ${id}, args]\`. */
    ${id}QueryKey: (args: QueryArgs[${quoted}]${fallback}): ${keyType} => queryKey(${resource}, ${quoted}, args),`,
    `    /** \`{ queryKey, queryFn }\` of \`${entry.method} ${entry.path}\`: the data is the success body (${dataWords(entry)}); an error answer throws ApiCallError. */
    ${id}Options: (args: QueryArgs[${quoted}]${fallback}): ReadOptions<${quoted}, ${keyType}, Contract> => readOptions(queryKey(${resource}, ${quoted}, args), (signal) => ${call('args')}),`,
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
  return `readKey(${resource}, ${quoted}, { path: { ${path} } } satisfies QueryArgs[${quoted}])`;
}

function mutationMember(entry, invalidations, table) {
  const id = entry.operationId;
  const quoted = literal(id);
  const keys = invalidations.map((item) => invalidatedKey(table[item.operationId], item.parameters));
  // Unused callback parameters do not compile (noUnusedParameters): name only the ones used.
  const source = keys.join(' ');
  const parameters = `(${source.includes('variables.') ? 'variables' : '_variables'}: MutationVariables[${quoted}], ${source.includes('data.') ? 'data' : '_data'}: ContractSuccessData<Contract, ${quoted}>)`;
  return `    /** \`{ mutationKey, mutationFn, onSuccess }\` of \`${entry.method} ${entry.path}\`; onSuccess invalidates ${invalidations.map((item) => `\`${item.operationId}\``).join(', ')}. */
    ${id}Mutation: (): OperationMutationOptions<${quoted}, MutationVariables[${quoted}], Contract> =>
      mutationOptions(
        operationKey(${literal(entry.tag)}, ${quoted}),
        (variables: MutationVariables[${quoted}]) => api.${id}(${[...callArguments(entry, 'variables'), 'variables.options'].join(', ')}),
        ${parameters} => [${keys.join(', ')}],
      ),`;
}

/** `import { a, type B } from 'from';`, or nothing when neither list has a name. */
function importLine(from, values, types) {
  if (values.length === 0 && types.length === 0) return '';
  if (values.length === 0) return `import type { ${types.join(', ')} } from '${from}';`;
  return `import { ${[...values, ...types.map((type) => `type ${type}`)].join(', ')} } from '${from}';`;
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
    const options = callOptionsOf(entry);
    // A mutation reads its answer whole and is not aborted by TanStack: no stream, no signal.
    const type = `${options.own.replace(/^CallOptions/, 'MutationCallOptions')}`;
    const member = `options${options.required ? '' : '?'}: ${type}`;
    const args = argsType(entry);
    return `  ${entry.operationId}: ${args === 'Record<string, never>' ? `{ ${member} }` : `${args.slice(0, -2)}; ${member} }`};`;
  });
  const members = [
    ...reads.flatMap((entry) => readMembers(entry, paging[entry.operationId])),
    ...writes.map((entry) => mutationMember(entry, invalidations[entry.operationId], table)),
  ];
  const apiLines = entries.map((entry) => {
    const signature = signatureOf(entry);
    return `  ${entry.operationId}${signature.typeParameters}(${signature.parameters.join(', ')}): ${signature.result};`;
  });
  const body = [...argsLines, ...infiniteLines, ...variablesLines, ...members, ...apiLines].join('\n');
  // Only the types and values something uses: an unused import does not compile.
  const used = (name) => new RegExp(`\\b${name}\\b`).test(body);
  const pick = (names) => names.filter(used);
  const imports = [
    "import type { operations } from '@invoice-api/contract';",
    pick(['PageRequest']).length > 0 ? "import type { PageRequest } from '../src/paging.js';" : '',
    importLine('../src/query/infinite.js', pick(['infiniteOptions', 'infiniteQueryKey']), pick(['InfiniteOptions', 'InfiniteQueryKey'])),
    importLine('../src/query/keys.js', pick(['operationKey', 'queryKey', 'readKey']), pick(['ReadQueryKey'])),
    importLine('../src/query/mutation.js', pick(['mutationOptions']), pick(['MutationCallOptions', 'OperationMutationOptions'])),
    importLine('../src/query/read.js', pick(['readOptions']), pick(['ReadOptions'])),
    importLine('../src/result.js', [], ['ContractResult']),
    importLine('../src/transport.js', [], pick(['AcceptOption', 'CallOptions', 'ContentTypeOption', 'IdempotencyKeyOption', 'IfMatchOption', 'StreamOption'])),
    importLine('../src/types.js', [], pick(['ContractPathParameter', 'ContractQueryParams', 'ContractRequestBody', 'ContractSuccessData'])),
  ].filter((line) => line !== '');
  return `${header}
${imports.join('\n')}

${contractTypesSource(table)}

/** The client functions the options call: an \`ApiClient\` (\`createApiClient\`) has them all. */
export interface QueryApi {
${apiLines.join('\n')}
}

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
export function generatedQueryOptions(api: QueryApi) {
  return {
${members.join('\n')}
  };
}
`;
}
