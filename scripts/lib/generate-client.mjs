// The client's operation functions, generated from the operation table: one function per
// operationId, named after it, taking the path parameters (in path order), then the query, then the
// body, then the per-call options. Types come from the contract (`ContractPathParameter`,
// `ContractQueryParams`, `ContractRequestBody`, `ContractResult` over the spec's `operations` and the
// table's media facts), so this module only decides the shape of each signature and what each function
// tells the transport; the transport (token, request id, idempotency keys, retries, result shape) stays
// hand-written in packages/client/src/.
//
// Read here, once, from each table entry, and carried by its function:
// - the header parameters that have a call option (`Idempotency-Key`, `If-Match`): the option, and the
//   header's name for the transport;
// - how its bodies travel where they are not JSON (the entry's `responseMedia` and `requestMedia`,
//   scripts/lib/media-shapes.mjs): a `read` plan (each success status's media types and their kinds),
//   a `write` plan (the request's media types; for multipart, which parts are files), and the options
//   that go with them (`stream` for a file or text answer, `accept` where a status lists several media
//   types, `contentType` where the request does);
// - how its query is written: each parameter by its own `style` and `explode`.
// The same media facts are written out as the type `OperationMedia`, which the types of each body
// follow; the generated module imports nothing but the spec's `operations`/`paths` and the client's
// sources, so that the same code, generated from another spec elsewhere (`--out`), compiles there.

/** `invoice_id` -> `invoiceId`: the argument name of a path parameter. */
export function argumentName(parameterName) {
  return parameterName.replace(/[_-]+([a-zA-Z0-9])/g, (_, letter) => letter.toUpperCase());
}

/** A single-quoted TypeScript string literal, in the style of the hand-written code. */
const literal = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** An object key: bare when it is an identifier. */
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));

/** A JSON value as a TypeScript literal type (`readonly` all the way down, as an `as const` table's type is). */
export function typeLiteral(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `readonly [${value.map(typeLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value).map(([name, member]) => `readonly ${key(name)}: ${typeLiteral(member)}`);
    return members.length === 0 ? '{}' : `{ ${members.join('; ')} }`;
  }
  return typeof value === 'string' ? literal(value) : String(value);
}

/** A JSON value as a TypeScript expression (single-quoted strings, bare keys). */
function valueSource(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(valueSource).join(', ')}]`;
  if (typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([name, member]) => `${key(name)}: ${valueSource(member)}`)
      .join(', ')} }`;
  return typeof value === 'string' ? literal(value) : String(value);
}

/**
 * Request headers that have a call option of their own (lower-cased name -> option and its type in
 * packages/client/src/transport.ts). `X-Request-Id` is on every call already (`requestId`); any other
 * header goes through `headers`.
 */
const headerOptions = {
  'idempotency-key': { option: 'idempotencyKey', type: 'IdempotencyKeyOption' },
  'if-match': { option: 'ifMatch', type: 'IfMatchOption' },
};

/**
 * The answers a client takes for successes: every 2xx, and a `304 Not Modified` the spec documents (the
 * copy the caller holds, named by its If-None-Match, is current: no body, nothing failed).
 */
const isSuccess = (status) => /^(2\d\d|304)$/.test(status);

/** The success statuses and their media facts, as the table lists them (`[]`: no body). */
function successMedia(entry) {
  return Object.entries(entry.responseMedia ?? {}).filter(([status]) => isSuccess(status));
}

/** Whether the operation's request body is JSON and nothing else (openapi-fetch writes it, as always). */
function writesJson(entry) {
  const media = entry.requestMedia?.media ?? [];
  return media.length === 1 && media[0].kind === 'json';
}

/**
 * How the transport reads the operation's success answers: each success status with its media types
 * and kinds, or undefined where every success answer is one JSON body (openapi-fetch reads those).
 */
export function readPlanOf(entry) {
  const statuses = successMedia(entry);
  if (statuses.every(([, media]) => media.length === 1 && media[0].kind === 'json')) return undefined;
  return Object.fromEntries(statuses.map(([status, media]) => [status, media.map((facts) => [facts.mediaType, facts.kind])]));
}

/** How the transport writes the request body where it is not JSON: its media types, and a multipart body's file parts. */
export function writePlanOf(entry) {
  if (entry.requestMedia === null || entry.requestMedia === undefined || writesJson(entry)) return undefined;
  return entry.requestMedia.media.map((facts) => {
    if (facts.kind !== 'multipart') return { mediaType: facts.mediaType, kind: facts.kind };
    const files = Object.fromEntries(
      facts.parts.filter((part) => part.kind === 'file').map((part) => [part.name, part.contentTypes.length === 1 ? part.contentTypes[0] : '']),
    );
    return { mediaType: facts.mediaType, kind: facts.kind, files };
  });
}

/** Each query parameter's style and explode, for the client's `querySerializer`; undefined without a query. */
export function queryStylesOf(entry) {
  if (entry.queryParams.length === 0) return undefined;
  return Object.fromEntries(entry.queryParams.map((parameter) => [parameter.name, [parameter.style ?? 'form', parameter.explode ?? true]]));
}

/**
 * The call options type of an operation and what goes with it (also read by generate-query.mjs):
 * `headers`, the options of its header parameters (`CallOptions & IdempotencyKeyOption`); `reading`,
 * the options that change how the answer is read (`StreamOption`, `AcceptOption<...>`), which make the
 * function generic in its options; `required` when the caller must give options; `plan`, the header
 * names for the transport.
 */
export function callOptionsOf(entry) {
  const headers = ['CallOptions'];
  const plan = {};
  let required = false;
  for (const header of entry.headerParams ?? []) {
    const known = headerOptions[header.name.toLowerCase()];
    if (!known) continue;
    // A required header the transport does not make itself must come from the caller.
    const callerMustGive = header.required && known.option !== 'idempotencyKey';
    headers.push(callerMustGive ? `Required<${known.type}>` : known.type);
    required ||= callerMustGive;
    plan[known.option] = header.name;
  }
  const reading = [];
  const statuses = successMedia(entry);
  // A stream is for the answers that can be large: a file, a text.
  if (statuses.some(([, media]) => media.some((facts) => facts.kind === 'text' || facts.kind === 'bytes'))) reading.push('StreamOption');
  const choices = [...new Set(statuses.filter(([, media]) => media.length > 1).flatMap(([, media]) => media.map((facts) => facts.mediaType)))];
  if (choices.length > 0) reading.push(`AcceptOption<${choices.map(literal).join(' | ')}>`);
  const writing = [];
  const requestTypes = entry.requestMedia?.media ?? [];
  if (requestTypes.length > 1) writing.push(`ContentTypeOption<${requestTypes.map((facts) => literal(facts.mediaType)).join(' | ')}>`);
  const own = [...headers, ...writing].join(' & ');
  const parameter = reading.length > 0 ? `opts${required ? '' : '?'}: O` : `opts${required ? '' : '?'}: ${own}`;
  return {
    headers: headers.join(' & '),
    own,
    reading,
    required,
    parameter,
    // Without reading options the function is not generic; with them, O is the call's own options.
    typeParameters:
      reading.length > 0
        ? `<O extends ${[own, ...reading].join(' & ')} = ${required ? headers.filter((type) => type.startsWith('Required<')).join(' & ') : 'object'}>`
        : '',
    plan,
  };
}

/**
 * An operation function's signature: its type parameters, parameters and result type, over the
 * contract type named `contract` (also written by generate-query.mjs, whose options call these functions).
 */
export function signatureOf(entry, contract = 'Contract') {
  const id = literal(entry.operationId);
  const parameters = [];
  for (const parameter of [...entry.pathParams].sort((a, b) => a.segment - b.segment)) {
    parameters.push(`${argumentName(parameter.name)}: ContractPathParameter<${contract}, ${id}, ${literal(parameter.name)}>`);
  }
  if (entry.queryParams.length > 0) {
    const required = entry.queryParams.some((parameter) => parameter.required);
    parameters.push(`query${required ? '' : '?'}: ContractQueryParams<${contract}, ${id}>`);
  }
  if (entry.requestMedia) parameters.push(`body${entry.requestMedia.required ? '' : '?'}: ContractRequestBody<${contract}, ${id}>`);
  const options = callOptionsOf(entry);
  parameters.push(options.parameter);
  const read = options.typeParameters ? ', O' : '';
  return { typeParameters: options.typeParameters, parameters, result: `Promise<ContractResult<${contract}, ${id}${read}>>`, options };
}

function jsDoc(entry) {
  // `*/` inside the spec's text would end the comment early.
  const safe = (text) => text.replace(/\*\//g, '*\\/');
  const lines = [safe(entry.summary ?? entry.operationId)];
  const description = (entry.description ?? '').trim();
  if (description) lines.push('', ...safe(description).split('\n'));
  const scopes = entry.scopes.length > 0 ? ` (scope ${entry.scopes.map((scope) => `\`${scope}\``).join(', ')})` : '';
  lines.push('', `\`${entry.method} ${entry.path}\`${scopes}`);
  const answers = readPlanOf(entry);
  if (answers) {
    const shapes = { json: 'JSON', text: 'a string', bytes: 'a Blob', multipart: 'a FormData' };
    const each = Object.entries(answers).map(
      ([status, media]) => `${status}: ${media.length === 0 ? 'no body' : media.map(([mediaType, kind]) => `${shapes[kind]} (${mediaType})`).join(' or ')}`,
    );
    const stream = callOptionsOf(entry).reading.includes('StreamOption') ? '; `{ stream: true }` gives the body as a ReadableStream instead' : '';
    lines.push(`Answers ${each.join('; ')}${stream}.`);
  }
  if (entry.deprecated) lines.push('@deprecated The spec marks this operation as deprecated.');
  return ['    /**', ...lines.map((line) => (line ? `     * ${line}` : '     *')), '     */'].join('\n');
}

/** What the generated function hands the transport besides the send: its `callPlans` entry, if any. */
function planOf(entry) {
  const plan = { ...callOptionsOf(entry).plan };
  const read = readPlanOf(entry);
  if (read) plan.read = read;
  const write = writePlanOf(entry);
  if (write) plan.write = write;
  return Object.keys(plan).length > 0 ? plan : undefined;
}

function operationFunction(entry) {
  const id = entry.operationId;
  const quoted = literal(id);
  const requestParts = ['...init'];
  const pathArguments = [...entry.pathParams].sort((a, b) => a.segment - b.segment);
  const paramsParts = [];
  if (pathArguments.length > 0) {
    paramsParts.push(`path: { ${pathArguments.map((parameter) => `${key(parameter.name)}: ${argumentName(parameter.name)}`).join(', ')} }`);
  }
  if (entry.queryParams.length > 0) {
    const required = entry.queryParams.some((parameter) => parameter.required);
    paramsParts.push(required ? 'query' : 'query: query ?? {}');
  }
  if (paramsParts.length > 0) requestParts.push(`params: { ${paramsParts.join(', ')} }`);
  if (entry.queryParams.length > 0) requestParts.push(`querySerializer: queries.${id}`);
  const wire = writePlanOf(entry) !== undefined;
  if (entry.requestMedia) {
    // A body that is not JSON reaches openapi-fetch encoded (the transport's `wire`); JSON as it is.
    if (wire) requestParts.push('body: wire');
    else requestParts.push(entry.requestMedia.required ? 'body' : '...(body === undefined ? {} : { body })');
  }
  const signature = signatureOf(entry);
  const request = requestParts.length === 1 ? 'init' : `{ ${requestParts.join(', ')} }`;
  const plan = planOf(entry) ? `, callPlans.${id}` : '';
  const typeArguments = `<Contract, ${quoted}${signature.typeParameters ? ', O' : ''}>`;
  return `${jsDoc(entry)}
    ${id}: ${signature.typeParameters}(${signature.parameters.join(', ')}): ${signature.result} =>
      call${typeArguments}(${quoted}, opts, (init${wire ? ', wire' : ''}) => raw.${entry.method}(${literal(entry.path)}, ${request})${plan}${wire ? ', body' : ''}),`;
}

/** The media facts of each operation the types read, as a TypeScript type (also written by generate-query.mjs). */
export function contractTypesSource(table) {
  const entries = Object.values(table).map(
    (entry) =>
      `  ${key(entry.operationId)}: { readonly requestMedia: ${typeLiteral(entry.requestMedia ?? null)}; readonly responseMedia: ${typeLiteral(entry.responseMedia ?? {})} };`,
  );
  return `/**
 * How each operation's bodies are carried: the operation table's \`requestMedia\` and \`responseMedia\`
 * (scripts/lib/media-shapes.mjs), written out at generate time. The types of each body follow their kinds.
 */
export interface OperationMedia {
${entries.join('\n')}
}

/** The contract these functions are typed from: the spec's \`operations\` and the media facts of its table. */
export interface Contract {
  readonly operations: operations;
  readonly table: OperationMedia;
}`;
}

/**
 * The TypeScript module `packages/client/generated/operations.ts` (without its header).
 * @param {Record<string, any>} table the operation table
 */
export function clientOperationsModule(table) {
  const entries = Object.values(table);
  const functions = entries.map(operationFunction).join('\n\n');
  const plans = entries.flatMap((entry) => {
    const plan = planOf(entry);
    return plan ? [`  ${key(entry.operationId)}: ${valueSource(plan)},`] : [];
  });
  const queries = entries.flatMap((entry) => {
    const styles = queryStylesOf(entry);
    return styles ? [`  ${key(entry.operationId)}: querySerializer(${valueSource(styles)}),`] : [];
  });
  // Only the types and values some function uses: an unused import does not compile.
  const used = (name) => new RegExp(`\\b${name}\\b`).test(functions);
  const transportTypes = [
    'CallOptions',
    ...['AcceptOption', 'ContentTypeOption', 'IdempotencyKeyOption', 'IfMatchOption', 'StreamOption'].filter(used),
    ...(plans.length > 0 ? ['CallPlan'] : []),
    'Invoke',
  ].sort();
  const contractTypes = ['ContractPathParameter', 'ContractQueryParams', 'ContractRequestBody'].filter(used);
  return `
import type { Client } from 'openapi-fetch';
import type { operations, paths } from '@invoice-api/contract';
${queries.length > 0 ? "import { querySerializer } from '../src/query-string.js';\n" : ''}import type { ContractResult } from '../src/result.js';
import type { ${transportTypes.join(', ')} } from '../src/transport.js';
${contractTypes.length > 0 ? `import type { ${contractTypes.join(', ')} } from '../src/types.js';\n` : ''}
${contractTypesSource(table)}
${
  plans.length > 0
    ? `
/**
 * What each function tells the transport of its operation: the header names of its options, and how its
 * bodies travel where they are not JSON (\`read\`: each success status's media types and kinds; \`write\`:
 * the request's media types, a multipart body's file parts with the one media type each declares).
 */
export const callPlans = {
${plans.join('\n')}
} as const satisfies { readonly [operationId: string]: CallPlan };
`
    : ''
}${
  queries.length > 0
    ? `
/** Each operation's query, each parameter written by its own \`style\` and \`explode\`. */
const queries = {
${queries.join('\n')}
};
`
    : ''
}
/**
 * One function per operationId of the spec; \`call\` adds the token, the request id, the headers of
 * the operation's own options (\`Idempotency-Key\`, \`If-Match\`) and retries, and reads and writes the
 * bodies that are not JSON as the operation's plan says.
 */
export function operationFunctions(raw: Client<paths>, call: Invoke) {
  return {
${functions}
  };
}
`;
}
