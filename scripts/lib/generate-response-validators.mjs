// Response validators compiled here, at generate time, into plain JavaScript (Ajv's standalone code),
// so that no schema is compiled at run time: the client's (`validateResponses: true`, in a browser
// whose Content-Security-Policy forbids `eval`/`new Function`) and the service's own (every answer
// checked before it is sent, without express-openapi-validator's per-response lookups).
//
// One validator per distinct response body of the STRICT bundle (closed objects: the service never
// sends an undocumented field, so a mock or a proxy that does is caught), and a table
// operationId -> status -> validator for every documented answer, error answers included. The
// published spec leaves response objects open for consumers that must survive additions; this check
// is the opposite tool, for development and tests, so it uses the strict schemas.
//
// Three changes to the schemas before compiling, none of which changes what is valid except the first:
// - for the client, an enum marked `x-extensible-enum: true` (ErrorCode) is checked for its type only:
//   the spec tells clients to expect codes it does not list yet, so a new code is not a broken answer
//   (the service's table keeps the enum: it must send only the codes it documents);
// - annotations (`description`, `example(s)`, `x-` keywords, `discriminator`) are dropped: Ajv
//   would embed them in the code for nothing;
// - `#/components/schemas/X` becomes `spec.json#/$defs/X`, one schema document Ajv can resolve.
//
// The code needs no Ajv package at run time: the one runtime helper it uses (`ucs2length`, the length
// of a string in code points, as JSON Schema counts) is written into the module; generating fails if
// a schema needs any other helper, so that a new dependency is a decision, not an accident. Formats
// are called by name on the contract's table (packages/contract/src/formats.ts).
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv';

const schemaPrefix = '#/components/schemas/';
const documentId = 'spec.json';
const annotations = new Set(['description', 'example', 'examples', 'discriminator', 'externalDocs', 'xml']);
/** Keywords whose value is a map of names to schemas (its keys are names, not keywords). */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is a list of schemas. */
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value is one schema. */
const schemaSingles = new Set([
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of one schema as the validators check it (see the header). */
function forValidation(schema, openEnums) {
  if (!isObject(schema)) return schema;
  const copy = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (annotations.has(keyword) || keyword.startsWith('x-')) continue;
    if (keyword === 'enum' && openEnums && schema['x-extensible-enum'] === true) continue;
    if (keyword === '$ref' && typeof value === 'string' && value.startsWith(schemaPrefix)) {
      copy.$ref = `${documentId}#/$defs/${value.slice(schemaPrefix.length)}`;
    } else if (schemaMaps.has(keyword) && isObject(value)) {
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, forValidation(child, openEnums)]));
    } else if (schemaLists.has(keyword) && Array.isArray(value)) {
      copy[keyword] = value.map((child) => forValidation(child, openEnums));
    } else if (schemaSingles.has(keyword)) {
      copy[keyword] = forValidation(value, openEnums);
    } else {
      copy[keyword] = value;
    }
  }
  return copy;
}

/** Every `format` the schemas use, with the JSON type it applies to (Ajv skips a format of another type). */
function formatsUsed(node, found = new Map()) {
  if (Array.isArray(node)) for (const child of node) formatsUsed(child, found);
  else if (isObject(node)) {
    if (typeof node.format === 'string') found.set(node.format, node.type === 'number' || node.type === 'integer' ? 'number' : 'string');
    for (const child of Object.values(node)) formatsUsed(child, found);
  }
  return found;
}

function resolveResponse(spec, response) {
  const ref = response?.$ref;
  if (typeof ref !== 'string') return response;
  return spec.components?.responses?.[ref.slice(ref.lastIndexOf('/') + 1)];
}

/** operationId -> status -> body schema (undefined: the answer has no JSON body), in the spec's order. */
function documentedBodies(spec) {
  const bodies = {};
  for (const item of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const statuses = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^\d{3}$/.test(status))
          throw new Error(`response validators: ${operation.operationId} documents a "${status}" answer; only numeric statuses are supported`);
        statuses[status] = resolveResponse(spec, response)?.content?.['application/json']?.schema;
      }
      bodies[operation.operationId] = statuses;
    }
  }
  return bodies;
}

/** Ajv's `ucs2length` (lib/runtime/ucs2length.ts), so the generated code imports nothing of Ajv. */
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

/** The client's table: `packages/client/generated/response-validators.ts`. */
export const clientValidators = {
  openEnums: true,
  imports: `import { responseFormats as formats } from '../src/response-formats.js';
import type { ResponseValidatorTable } from '../src/response-validation.js';`,
};

/** The service's table: `packages/server/generated/response-validators.ts`. */
export const serviceValidators = {
  openEnums: false,
  imports: `import { responseFormats as formats, type ResponseValidatorTable } from '@invoice-api/contract';`,
};

/**
 * A TypeScript module of response validators (without its header).
 * @param {object} spec the strict bundled spec (not modified)
 * @param {{ openEnums: boolean, imports: string }} target `clientValidators` or `serviceValidators`
 */
export function responseValidatorsModule(spec, target = clientValidators) {
  const forTarget = (schema) => forValidation(schema, target.openEnums);
  const defs = Object.fromEntries(Object.entries(spec.components?.schemas ?? {}).map(([name, schema]) => [name, forTarget(schema)]));
  const formats = Object.fromEntries([...formatsUsed(defs)].map(([name, type]) => [name, { type, validate: () => true }]));
  const ajv = new Ajv2020({ strict: true, allErrors: false, formats, code: { source: true, esm: true, formats: _`formats` } });
  ajv.addSchema({ $id: documentId, $defs: defs });

  // One validator per distinct body, shared by every answer that has it (most errors share `Error`).
  const bodies = documentedBodies(spec);
  const names = new Map();
  const exports = {};
  const table = {};
  for (const [operationId, statuses] of Object.entries(bodies)) {
    table[operationId] = {};
    for (const [status, schema] of Object.entries(statuses)) {
      if (schema === undefined) {
        table[operationId][status] = 'noJsonBody';
        continue;
      }
      const key = JSON.stringify(schema);
      if (!names.has(key)) {
        const name = `body${names.size}`;
        names.set(key, name);
        ajv.addSchema({ $id: name, ...forTarget(schema) });
        exports[name] = name;
      }
      table[operationId][status] = names.get(key);
    }
  }

  let code = standaloneCode(ajv, exports).replace(/^"use strict";/, '');
  code = code.replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length');
  const helpers = code.match(/require\("[^"]*"\)/g);
  if (helpers)
    throw new Error(
      `response validators: the compiled code needs ${[...new Set(helpers)].join(', ')}; add it to scripts/lib/generate-response-validators.mjs deliberately`,
    );
  // The validators stay private to the module; only the typed table is exported.
  code = code.replace(/export const (body\d+) = /g, 'const $1 = ');

  const tableSource = Object.entries(table)
    .map(
      ([operationId, statuses]) =>
        `  ${operationId}: { ${Object.entries(statuses)
          .map(([status, name]) => `${status}: ${name}`)
          .join(', ')} },`,
    )
    .join('\n');
  return `// @ts-nocheck -- Ajv's standalone JavaScript; the one export is typed below.
${target.imports}

${ucs2length}

/** A documented answer without a JSON body: nothing to check. */
const noJsonBody = () => true;

${code}

/** operationId -> documented status -> the validator of that answer's body. */
export const responseValidators: ResponseValidatorTable = {
${tableSource}
};
`;
}
