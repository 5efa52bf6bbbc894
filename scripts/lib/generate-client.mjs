// The client's operation functions, generated from the operation table: one function per
// operationId, named after it, taking the path parameters (in path order), then the query, then the
// body, then the per-call options. Types come from the contract (`PathParameter`, `QueryParams`,
// `RequestBody`), so this module only decides the shape of each signature; the transport (token,
// request id, idempotency keys, retries, result shape) stays hand-written in packages/client/src/.
//
// Which operations take an `Idempotency-Key` or an `If-Match` is read from their header parameters
// here, once: such a function gets the call option for it and tells the transport the header's name.

/** `invoice_id` -> `invoiceId`: the argument name of a path parameter. */
export function argumentName(parameterName) {
  return parameterName.replace(/[_-]+([a-zA-Z0-9])/g, (_, letter) => letter.toUpperCase());
}

/** A single-quoted TypeScript string literal, in the style of the hand-written code. */
const literal = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** An object key: bare when it is an identifier. */
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));

/**
 * Request headers that have a call option of their own (lower-cased name -> option and its type in
 * packages/client/src/transport.ts). `X-Request-Id` is on every call already (`requestId`); any other
 * header goes through `headers`.
 */
const headerOptions = {
  'idempotency-key': { option: 'idempotencyKey', type: 'IdempotencyKeyOption' },
  'if-match': { option: 'ifMatch', type: 'IfMatchOption' },
};

/** The call options type of an operation, and the header plan handed to the transport (also read by generate-query.mjs). */
export function callOptionsOf(entry) {
  const types = ['CallOptions'];
  const plan = [];
  let required = false;
  for (const header of entry.headerParams ?? []) {
    const known = headerOptions[header.name.toLowerCase()];
    if (!known) continue;
    // A required header the transport does not make itself must come from the caller.
    const callerMustGive = header.required && known.option !== 'idempotencyKey';
    types.push(callerMustGive ? `Required<${known.type}>` : known.type);
    required ||= callerMustGive;
    plan.push(`${known.option}: ${literal(header.name)}`);
  }
  return { parameter: `opts${required ? '' : '?'}: ${types.join(' & ')}`, plan: plan.length > 0 ? `{ ${plan.join(', ')} }` : undefined };
}

function jsDoc(entry) {
  // `*/` inside the spec's text would end the comment early.
  const safe = (text) => text.replace(/\*\//g, '*\\/');
  const lines = [safe(entry.summary ?? entry.operationId)];
  const description = (entry.description ?? '').trim();
  if (description) lines.push('', ...safe(description).split('\n'));
  const scopes = entry.scopes.length > 0 ? ` (scope ${entry.scopes.map((scope) => `\`${scope}\``).join(', ')})` : '';
  lines.push('', `\`${entry.method} ${entry.path}\`${scopes}`);
  if (entry.deprecated) lines.push('@deprecated The spec marks this operation as deprecated.');
  return ['    /**', ...lines.map((line) => (line ? `     * ${line}` : '     *')), '     */'].join('\n');
}

function operationFunction(entry) {
  const id = entry.operationId;
  const quoted = literal(id);
  const parameters = [];
  const requestParts = ['...init'];

  const pathArguments = [...entry.pathParams].sort((a, b) => a.segment - b.segment);
  for (const parameter of pathArguments) {
    parameters.push(`${argumentName(parameter.name)}: PathParameter<${quoted}, ${literal(parameter.name)}>`);
  }
  const paramsParts = [];
  if (pathArguments.length > 0) {
    paramsParts.push(`path: { ${pathArguments.map((parameter) => `${key(parameter.name)}: ${argumentName(parameter.name)}`).join(', ')} }`);
  }
  if (entry.queryParams.length > 0) {
    const required = entry.queryParams.some((parameter) => parameter.required);
    parameters.push(required ? `query: QueryParams<${quoted}>` : `query?: QueryParams<${quoted}>`);
    paramsParts.push(required ? 'query' : 'query: query ?? {}');
  }
  if (paramsParts.length > 0) requestParts.push(`params: { ${paramsParts.join(', ')} }`);
  if (entry.body) {
    parameters.push(entry.body.required ? `body: RequestBody<${quoted}>` : `body?: RequestBody<${quoted}>`);
    requestParts.push(entry.body.required ? 'body' : '...(body === undefined ? {} : { body })');
  }
  const options = callOptionsOf(entry);
  parameters.push(options.parameter);

  const request = requestParts.length === 1 ? 'init' : `{ ${requestParts.join(', ')} }`;
  const plan = options.plan ? `, ${options.plan}` : '';
  return `${jsDoc(entry)}
    ${id}: (${parameters.join(', ')}): Promise<ApiResult<${quoted}>> =>
      call(${quoted}, opts, (init) => raw.${entry.method}(${literal(entry.path)}, ${request})${plan}),`;
}

/**
 * The TypeScript module `packages/client/generated/operations.ts` (without its header).
 * @param {Record<string, { operationId: string, method: string, path: string, summary?: string, description?: string, deprecated?: boolean, scopes: string[], pathParams: { name: string, segment: number }[], queryParams: { name: string, required: boolean }[], headerParams?: { name: string, required: boolean }[], body: { required: boolean } | null }>} table
 */
export function clientOperationsModule(table) {
  const functions = Object.values(table).map(operationFunction).join('\n\n');
  // Only the option types some function uses: an unused import does not compile.
  const transportTypes = [
    'CallOptions',
    ...Object.values(headerOptions)
      .map((known) => known.type)
      .filter((type) => functions.includes(type)),
    'Invoke',
  ];
  return `
import type { Client } from 'openapi-fetch';
import type { paths } from '@invoice-api/contract';
import type { ApiResult } from '../src/result.js';
import type { ${transportTypes.join(', ')} } from '../src/transport.js';
import type { PathParameter, QueryParams, RequestBody } from '../src/types.js';

/**
 * One function per operationId of the spec; \`call\` adds the token, the request id, the headers of
 * the operation's own options (\`Idempotency-Key\`, \`If-Match\`) and retries.
 */
export function operationFunctions(raw: Client<paths>, call: Invoke) {
  return {
${functions}
  };
}
`;
}
