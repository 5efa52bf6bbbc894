// The PUBLISHED spec: what consumers get (`/openapi.json`, `/docs`, the generated `openapi.published.*`).
// It is the strict bundle with two changes, so that a consumer's stock tools can load it and a
// consumer's client survives additive changes:
//   1. Response schemas are open: `additionalProperties: false` is dropped from every object schema
//      that only responses use, so a client validating against it accepts a field added later
//      (an addition `pnpm spec:diff` calls safe). Request schemas stay closed: the service rejects
//      unknown request properties, and the published spec must say so.
//   2. Schemas hold only standard JSON Schema 2020-12: stock Ajv (strict by default) rejects unknown
//      formats and unknown keywords, `x-` ones included. The custom `decimalN` formats and the `x-`
//      keywords inside schemas are removed; both are stated in the schema's description, which this
//      step checks, so nothing a consumer needs is lost.
//   3. Deprecations say their dates in words: Redoc shows `deprecated` but no `x-` keyword, and the
//      schema step above removes them; so every deprecated operation, parameter and property gets
//      "Deprecated since <x-deprecated-since>. Sunset: <x-sunset> ..." appended to its description.
//   4. Links say where they lead in words: Redoc does not render `links`, so each response that has
//      some gets a list of them appended to its description (links-in-words.mjs).
// The service's validator and the contract suite keep using the strict bundle, which still fails on
// any undocumented response field.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { deprecationNotice } from './deprecation.mjs';
import { describeLinks } from './links-in-words.mjs';

const customFormat = /^decimal(\d+)$/;
const schemaPrefix = '#/components/schemas/';

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names of the component schemas `node` reaches through `$ref`, transitively. */
function reachableSchemas(node, schemas, found = new Set()) {
  if (Array.isArray(node)) {
    for (const entry of node) reachableSchemas(entry, schemas, found);
  } else if (isObject(node)) {
    if (typeof node.$ref === 'string' && node.$ref.startsWith(schemaPrefix)) {
      const name = node.$ref.slice(schemaPrefix.length);
      if (!found.has(name)) {
        found.add(name);
        reachableSchemas(schemas[name], schemas, found);
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== '$ref') reachableSchemas(value, schemas, found);
  }
  return found;
}

/** The schemas requests use (bodies, parameters) and the ones responses use. */
function schemaUsage(spec) {
  const schemas = spec.components?.schemas ?? {};
  const requestParts = [spec.components?.parameters, spec.components?.requestBodies];
  const responseParts = [spec.components?.responses, spec.components?.headers];
  for (const item of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      requestParts.push(operation.parameters, operation.requestBody);
      responseParts.push(operation.responses);
    }
  }
  return { request: reachableSchemas(requestParts, schemas), response: reachableSchemas(responseParts, schemas) };
}

/** Opens one response schema, and the object schemas written inline inside it. */
function openObjects(schema) {
  if (Array.isArray(schema)) {
    for (const entry of schema) openObjects(entry);
    return;
  }
  if (!isObject(schema)) return;
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'default') openObjects(value);
}

/** Removes custom formats and `x-` keywords from one schema tree, checking the description keeps the fact. */
function standardOnly(schema, where) {
  if (Array.isArray(schema)) {
    for (const [index, entry] of schema.entries()) standardOnly(entry, `${where}/${index}`);
    return;
  }
  if (!isObject(schema)) return;
  const places = typeof schema.format === 'string' ? customFormat.exec(schema.format)?.[1] : undefined;
  if (places !== undefined) {
    if (!String(schema.description ?? '').includes(`at most ${places} decimals`)) {
      throw new Error(`published spec: ${where} uses format ${schema.format}; its description must say "at most ${places} decimals"`);
    }
    delete schema.format;
  }
  for (const key of Object.keys(schema)) if (key.startsWith('x-')) delete schema[key];
  for (const [key, value] of Object.entries(schema))
    if (key !== 'examples' && key !== 'default' && key !== 'const' && key !== 'enum') standardOnly(value, `${where}/${key}`);
}

/** Every schema object of the document outside `components.schemas` (parameters, headers, media types). */
function inlineSchemas(node, visit) {
  if (Array.isArray(node)) {
    for (const entry of node) inlineSchemas(entry, visit);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'schema' && isObject(value)) visit(value);
    else if (key !== 'examples' && key !== 'example') inlineSchemas(value, visit);
  }
}

/** The sentence a deprecated node's description ends with in the published spec (and so in /docs). */
export function deprecationSentence(notice) {
  return `**Deprecated** since ${notice.since}. **Sunset: ${notice.sunset}**: it may be removed from that day on; move off it before then.`;
}

/**
 * Appends the deprecation sentence to the description of every deprecated node (operations,
 * parameters, schemas and properties); examples are data, not spec, and are left alone.
 */
function announceDeprecations(node, where) {
  if (Array.isArray(node)) {
    for (const [index, entry] of node.entries()) announceDeprecations(entry, `${where}/${index}`);
    return;
  }
  if (!isObject(node)) return;
  const notice = deprecationNotice(node, where);
  if (notice !== null) {
    const description = typeof node.description === 'string' ? node.description.trimEnd() : '';
    node.description = description === '' ? deprecationSentence(notice) : `${description}\n\n${deprecationSentence(notice)}`;
  }
  for (const [key, value] of Object.entries(node))
    if (key !== 'examples' && key !== 'example' && key !== 'default') announceDeprecations(value, `${where}/${key}`);
}

/** @param {Record<string, any>} strict the strict bundle (not changed) @returns the published document */
export function publishedSpec(strict) {
  const spec = structuredClone(strict);
  announceDeprecations(spec.paths, '#/paths');
  announceDeprecations(spec.components, '#/components');
  describeLinks(spec);
  const schemas = spec.components?.schemas ?? {};
  const usage = schemaUsage(spec);
  for (const name of usage.response) {
    if (usage.request.has(name)) {
      // Opening it would tell clients that requests may carry unknown properties, which the service rejects.
      if (JSON.stringify(schemas[name]).includes('"additionalProperties":false')) {
        throw new Error(`published spec: schema ${name} is used by requests and responses; give each its own schema`);
      }
      continue;
    }
    openObjects(schemas[name]);
  }
  for (const [name, schema] of Object.entries(schemas)) standardOnly(schema, `${schemaPrefix}${name}`);
  inlineSchemas({ paths: spec.paths, components: { ...spec.components, schemas: undefined } }, (schema) => standardOnly(schema, 'inline schema'));
  return spec;
}

/** Writes a whole file or nothing (two generate runs may write the same folder at once). */
function writeWhole(file, data) {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

/** Writes `openapi.published.json` and `.yaml` next to the strict bundle. */
export function writePublishedSpec(strict, outDir) {
  const spec = publishedSpec(strict);
  writeWhole(join(outDir, 'openapi.published.json'), `${JSON.stringify(spec, null, 2)}\n`);
  writeWhole(
    join(outDir, 'openapi.published.yaml'),
    `# GENERATED from openapi/ by scripts/generate.mjs (scripts/lib/published-spec.mjs). Do not edit.\n${toYaml(spec, { lineWidth: 0 })}`,
  );
  return spec;
}
