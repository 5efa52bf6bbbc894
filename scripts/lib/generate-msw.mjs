// What the client's MSW handlers (`@invoice-api/client/msw`) need from the spec, derived once at
// generate time, in two modules of packages/client/generated/:
//
// Which media types each body has and how each is carried (JSON, text, bytes, multipart) is read from
// the operation table (`requestMedia`, `responseMedia`: scripts/lib/media-shapes.mjs), never guessed
// here from a media type's name.
//
// msw-request-validators.ts: per operation and per request media type, a validator compiled here into
//   plain JavaScript (Ajv's standalone code, as the response validators are), that checks a request's
//   query and body the way the service's validator (express-openapi-validator) does: a JSON body as
//   its schema, a text body as its string schema, a multipart body as an object of its parts (a file
//   part accepts any value here: its media type and size are the handlers' checks, from the table),
//   and under the key '' the query alone, for a request without a body. The same spec with Ajv's
//   discriminator hints (validator-spec.mjs), the same Ajv options (all errors, defaults filled in,
//   `discriminator`), formats as ajv-formats' `full` mode and the spec's decimal formats, and the
//   validator's `readOnly` rule. The data checked is shaped as the validator shapes it,
//   `{ query, body }`, so the errors' paths read `/body/criteria/0/value` as the service's do, and
//   the contract's mapping (request-checks/validator-problems.ts) turns them into the same 400.
//   No schema is compiled in the browser.
//
// msw-answers.ts: per operation, its method and path, and per documented status the headers the
//   spec requires (with the spec's example values) and, per media type (the table's, in the spec's
//   order), the named examples (values resolved), the body schema the handlers generate seeded data
//   from (JSON and text), or a small valid file of the type (bytes: sample-files.mjs, base64). The
//   schemas are the strict bundle's, with annotations dropped; a string with a `pattern` carries
//   either its examples or a plan of the pattern (character sets and counts) to draw from, and
//   generating fails for a pattern the plan cannot read and no example covers, so that seeded data
//   is always valid.
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv';
import { operationTable } from './operation-table.mjs';
import { sampleFile } from './sample-files.mjs';
import { withDiscriminatorHints } from './validator-spec.mjs';

const schemaPrefix = '#/components/schemas/';
const documentId = 'spec.json';
/** Dropped before compiling or shipping: words for people, and the spec's own extensions. */
const annotations = new Set(['description', 'title', 'example', 'examples', 'externalDocs', 'xml', '$comment']);

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refName(ref) {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** A copy of a schema without annotations, `$ref`s pointing into one document (`prefix` + name). */
function stripped(schema, prefix) {
  if (Array.isArray(schema)) return schema.map((child) => stripped(child, prefix));
  if (!isObject(schema)) return schema;
  const copy = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (annotations.has(keyword) || keyword.startsWith('x-')) continue;
    if (keyword === '$ref' && typeof value === 'string' && value.startsWith(schemaPrefix)) copy.$ref = `${prefix}${refName(value)}`;
    else if (keyword === 'properties' || keyword === '$defs') {
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, stripped(child, prefix)]));
    } else if (keyword === 'enum' || keyword === 'const' || keyword === 'default' || keyword === 'required') copy[keyword] = value;
    else copy[keyword] = stripped(value, prefix);
  }
  return copy;
}

function resolved(spec, node) {
  let current = node;
  for (let depth = 0; depth < 8 && isObject(current) && typeof current.$ref === 'string'; depth += 1) {
    const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(current.$ref) ?? [];
    current = spec.components?.[section]?.[name];
  }
  return current;
}

function operations(spec) {
  const found = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (isObject(operation) && typeof operation.operationId === 'string') found.push({ path, method, operation, pathItem: item });
    }
  }
  return found;
}

/** The operation's parameters (path item's and its own), resolved. */
function parametersOf(spec, pathItem, operation) {
  return [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => resolved(spec, parameter));
}

/** Ajv's `ucs2length`, as in the response validators: the generated code imports nothing of Ajv. */
const ucs2length = `function ucs2length(str) {
  const len = str.length;
  let length = 0;
  let pos = 0;
  let value;
  while (pos < len) {
    length++;
    value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      value = str.charCodeAt(pos);
      if ((value & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}`;

/** Every `format` the schemas use, with the JSON type it applies to. */
function formatsUsed(node, found = new Map()) {
  if (Array.isArray(node)) for (const child of node) formatsUsed(child, found);
  else if (isObject(node)) {
    if (typeof node.format === 'string') found.set(node.format, node.type === 'number' || node.type === 'integer' ? 'number' : 'string');
    for (const child of Object.values(node)) formatsUsed(child, found);
  }
  return found;
}

/**
 * The request validators' module (without its header).
 * @param {object} spec the strict bundled spec (not modified)
 * @param {Record<string, any>} [table] the operation table generated from it (computed when not given)
 */
export function mswRequestValidatorsModule(spec, table = operationTable(spec)) {
  const annotated = withDiscriminatorHints(spec);
  const prefix = `${documentId}#/$defs/`;
  // `discriminator` stays: it decides which branch's errors the service's validator reports.
  const defs = Object.fromEntries(Object.entries(annotated.components?.schemas ?? {}).map(([name, schema]) => [name, stripped(schema, prefix)]));
  const formats = Object.fromEntries([...formatsUsed(defs)].map(([name, type]) => [name, { type, validate: () => true }]));
  // The options express-openapi-validator gives Ajv for request bodies (src/framework/ajv/options.ts)
  // with the service's `validateRequests` (packages/server/src/http/validator.ts).
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allErrors: true,
    discriminator: true,
    useDefaults: true,
    formats,
    code: { source: true, esm: true, formats: _`formats` },
  });
  // The validator's request rule: a read-only property sent in a request is an error at its own path.
  ajv.removeKeyword('readOnly');
  ajv.addKeyword({
    keyword: 'readOnly',
    schemaType: 'boolean',
    error: { message: 'is read-only' },
    code(context) {
      if (context.schema === true) context.fail(_`${context.data} !== undefined && ${context.data} !== null`);
    },
  });
  ajv.addSchema({ $id: documentId, $defs: defs });

  const exports = {};
  const entries = [];
  const compile = (name, properties, required) => {
    ajv.addSchema({ $id: name, type: 'object', properties, required });
    exports[name] = name;
    return name;
  };
  for (const { pathItem, operation } of operations(annotated)) {
    const facts = table[operation.operationId];
    const query = parametersOf(annotated, pathItem, operation).filter((parameter) => parameter?.in === 'query');
    const content = resolved(annotated, operation.requestBody)?.content ?? {};
    const queryProperty =
      query.length === 0
        ? {}
        : {
            query: {
              type: 'object',
              properties: Object.fromEntries(query.map((parameter) => [parameter.name, stripped(parameter.schema, prefix)])),
              required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
            },
          };
    const checks = [];
    for (const [index, media] of (facts.requestMedia?.media ?? []).entries()) {
      const body = requestBodySchema(annotated, media, content[media.mediaType]?.schema, prefix);
      // A byte body is not validated: the query check ('') serves a request with one.
      if (body === undefined) continue;
      const name = compile(`request_${operation.operationId}_${index}`, { ...queryProperty, body }, facts.requestMedia.required ? ['body'] : []);
      checks.push(`${JSON.stringify(media.mediaType)}: ${name}`);
    }
    if (query.length > 0) checks.push(`'': ${compile(`request_${operation.operationId}`, queryProperty, [])}`);
    if (checks.length > 0) entries.push(`  ${operation.operationId}: { ${checks.join(', ')} },`);
  }

  let code = standaloneCode(ajv, exports).replace(/^"use strict";/, '');
  code = code.replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length');
  const helpers = code.match(/require\("[^"]*"\)/g);
  if (helpers)
    throw new Error(`msw request validators: the compiled code needs ${[...new Set(helpers)].join(', ')}; add it to scripts/lib/generate-msw.mjs deliberately`);
  code = code.replace(/export const (request_\w+) = /g, 'const $1 = ');
  return `// @ts-nocheck -- Ajv's standalone JavaScript; the one export is typed below.
import { responseFormats as formats } from '@invoice-api/contract';
import type { RequestValidatorTable } from '../src/msw/request-checks.js';

${ucs2length}

${code}

/** operationId -> request media type -> the check of \`{ query, body }\`; '' checks the query of a request without a body. */
export const requestValidators: RequestValidatorTable<${operationIdUnion(table)}> = {
${entries.join('\n')}
};
`;
}

/** The operations of a table as a TypeScript union of string literals. */
function operationIdUnion(table) {
  const ids = Object.keys(table);
  return ids.length === 0 ? 'never' : ids.map((id) => JSON.stringify(id)).join(' | ');
}

/**
 * The schema a request body of one media type is validated against, by its kind in the table: JSON
 * and text as the spec's schema; multipart as an object of its parts, where a file part takes any
 * value (the handlers check its media type and size from the table's part facts, and put the File
 * there) and an array of files keeps only its `maxItems`; bytes not at all (undefined).
 */
function requestBodySchema(spec, media, schema, prefix) {
  if (media.kind === 'bytes') return undefined;
  if (media.kind !== 'multipart') return stripped(schema ?? {}, prefix);
  const copy = stripped(resolved(spec, schema) ?? {}, prefix);
  const properties = { ...(copy.properties ?? {}) };
  for (const part of media.parts) {
    if (part.kind !== 'file') continue;
    properties[part.name] = part.multiple ? { type: 'array', ...(part.maxItems === undefined ? {} : { maxItems: part.maxItems }) } : {};
  }
  return { ...copy, properties };
}

// --- answers --------------------------------------------------------------------------------------

/**
 * A pattern as a sequence of character sets with counts, when it is that simple: anchored, made of
 * literals, classes (`[A-Z0-9._-]`), `\d` and the quantifiers `{n}`, `{n,}`, `{n,m}`, `?`, `*`, `+`.
 * Undefined for anything else (groups, alternatives...).
 */
export function patternPlan(pattern) {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return undefined;
  const source = pattern.slice(1, -1);
  const plan = [];
  let at = 0;
  const expand = (from, to) =>
    Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, index) => String.fromCharCode(from.charCodeAt(0) + index)).join('');
  while (at < source.length) {
    let chars;
    const character = source[at];
    if (character === '[') {
      const end = source.indexOf(']', at + 1);
      if (end < 0 || source[at + 1] === '^') return undefined;
      const inner = source.slice(at + 1, end);
      chars = '';
      for (let index = 0; index < inner.length; index += 1) {
        if (inner[index] === '\\') {
          chars += inner[index + 1];
          index += 1;
        } else if (inner[index + 1] === '-' && index + 2 < inner.length) {
          chars += expand(inner[index], inner[index + 2]);
          index += 2;
        } else chars += inner[index];
      }
      at = end + 1;
    } else if (character === '\\') {
      const escaped = source[at + 1];
      if (escaped === 'd') chars = '0123456789';
      else if (/[.\-\\/^$[\]{}()*+?|]/.test(escaped ?? '')) chars = escaped;
      else return undefined;
      at += 2;
    } else if (/[()|.*+?{}]/.test(character)) return undefined;
    else {
      chars = character;
      at += 1;
    }
    let min = 1;
    let max = 1;
    const quantifier = /^(?:\{(\d+)(,(\d*))?\}|[?*+])/.exec(source.slice(at));
    if (quantifier) {
      if (quantifier[0] === '?') [min, max] = [0, 1];
      else if (quantifier[0] === '*') [min, max] = [0, 8];
      else if (quantifier[0] === '+') [min, max] = [1, 8];
      else {
        min = Number(quantifier[1]);
        max = quantifier[2] === undefined ? min : quantifier[3] === '' ? min + 4 : Number(quantifier[3]);
      }
      at += quantifier[0].length;
    }
    plan.push({ chars, min, max });
  }
  return plan;
}

/** The keywords the seeded data generator reads (packages/client/src/msw/sample-data.ts). */
const generationKeywords = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'oneOf',
  'anyOf',
  'allOf',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
]);
/** Keywords whose value is data, not a schema. */
const dataKeywords = new Set(['enum', 'const', 'required']);

/** A schema as the generator reads it: its keywords only, `$ref` a name, patterns prepared (see the header). */
function generationSchema(node, where) {
  if (Array.isArray(node)) return node.map((child, index) => generationSchema(child, `${where}/${index}`));
  if (!isObject(node)) return node;
  const out = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (!generationKeywords.has(keyword)) continue;
    if (keyword === '$ref') out.$ref = refName(value);
    else if (keyword === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, generationSchema(child, `${where}/properties/${name}`)]));
    } else out[keyword] = dataKeywords.has(keyword) ? value : generationSchema(value, `${where}/${keyword}`);
  }
  if (typeof node.pattern === 'string') {
    const regex = new RegExp(node.pattern, 'u');
    const samples = [...(node.examples ?? []), ...(node.example === undefined ? [] : [node.example])].filter(
      (value) => typeof value === 'string' && regex.test(value),
    );
    if (samples.length > 0) out.samples = samples;
    else {
      const plan = patternPlan(node.pattern);
      if (plan === undefined)
        throw new Error(`msw answers: ${where} has the pattern ${node.pattern}, which seeded data cannot follow; give the schema an example`);
      out.patternPlan = plan;
    }
  }
  return out;
}

/** The names of the schemas `node` refers to, directly or through others. */
function referencedSchemas(spec, node, found = new Set()) {
  if (Array.isArray(node)) for (const child of node) referencedSchemas(spec, child, found);
  else if (isObject(node)) {
    if (typeof node.$ref === 'string' && node.$ref.startsWith(schemaPrefix)) {
      const name = refName(node.$ref);
      if (!found.has(name)) {
        found.add(name);
        referencedSchemas(spec, spec.components?.schemas?.[name], found);
      }
    }
    for (const child of Object.values(node)) referencedSchemas(spec, child, found);
  }
  return found;
}

function headerValue(header) {
  const value = header?.example ?? header?.schema?.example ?? header?.schema?.enum?.[0];
  return value === undefined ? undefined : String(value);
}

/**
 * What the handlers answer with for one media type of one documented answer, by its kind in the
 * table: the named examples (values resolved; a media type's single `example` counts as the example
 * named `example`), the schema to generate seeded data from (JSON and text), and for bytes a small
 * valid file of the type, base64 (sample-files.mjs), sent where the spec gives no example.
 */
function mediaAnswer(spec, facts, mediaObject, where) {
  const examples = Object.fromEntries(Object.entries(mediaObject?.examples ?? {}).map(([name, example]) => [name, resolved(spec, example)?.value]));
  if (Object.keys(examples).length === 0 && mediaObject?.example !== undefined) examples.example = mediaObject.example;
  if (facts.kind === 'bytes') return { examples, sample: Buffer.from(sampleFile(facts.mediaType)).toString('base64') };
  const schema = mediaObject?.schema;
  return { examples, ...(schema === undefined || facts.kind === 'multipart' ? {} : { schema: generationSchema(schema, where) }) };
}

/**
 * The answers' module (without its header).
 * @param {object} spec the strict bundled spec (not modified)
 * @param {Record<string, any>} [table] the operation table generated from it (computed when not given)
 */
export function mswAnswersModule(spec, table = operationTable(spec)) {
  const ops = operations(spec);
  // A header every answer of the spec documents (X-Request-Id) is sent like a required one.
  const responses = ops.flatMap(({ operation }) => Object.values(operation.responses ?? {}).map((response) => resolved(spec, response)));
  const everywhere = new Set(Object.keys(responses[0]?.headers ?? {}).filter((name) => responses.every((response) => response?.headers?.[name] !== undefined)));

  const answersTable = {};
  for (const { path, method, operation } of ops) {
    const answers = {};
    const { responseMedia } = table[operation.operationId];
    for (const [status, reference] of Object.entries(operation.responses ?? {})) {
      const response = resolved(spec, reference);
      const headers = {};
      for (const [name, header] of Object.entries(response?.headers ?? {})) {
        const definition = resolved(spec, header);
        if (definition?.required !== true && !everywhere.has(name)) continue;
        const value = headerValue(definition);
        if (value === undefined) throw new Error(`msw answers: ${operation.operationId} ${status} requires the header ${name}, which has no example`);
        headers[name] = value;
      }
      const media = Object.fromEntries(
        (responseMedia[status] ?? []).map((facts) => [
          facts.mediaType,
          mediaAnswer(spec, facts, resolved(spec, response?.content?.[facts.mediaType]), `${operation.operationId}/${status}/${facts.mediaType}`),
        ]),
      );
      answers[status] = { headers, media };
    }
    answersTable[operation.operationId] = {
      method: method.toUpperCase(),
      // MSW's path syntax: `/api/v1/invoices/:invoice_id`.
      path: path.replace(/\{([^}]+)\}/g, ':$1'),
      answers,
    };
  }
  // Only the schemas an answer's body uses: request schemas never need generating.
  const used = referencedSchemas(
    spec,
    ops.map(({ operation }) => Object.values(operation.responses ?? {}).map((response) => resolved(spec, response)?.content)),
  );
  const definitions = Object.fromEntries([...used].sort().map((name) => [name, generationSchema(spec.components.schemas[name], `components/schemas/${name}`)]));
  return `import type { GenerationSchema, MswOperationTable } from '../src/msw/answer-table.js';

/** The spec's schemas as the seeded data generator reads them (\`$ref\` is a name in this table). */
export const generationSchemas: Readonly<Record<string, GenerationSchema>> = ${JSON.stringify(definitions, null, 2)};

/** Per operation: method, MSW path, and per documented status its required headers and, per media type, its examples, body schema or sample file. */
export const mswOperations: MswOperationTable<${operationIdUnion(table)}> = ${JSON.stringify(answersTable, null, 2)};
`;
}
