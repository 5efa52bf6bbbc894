// The spec the service's request validator compiles: the bundled spec plus Ajv's `discriminator`
// keyword (propertyName only, Ajv's form) on every `oneOf` whose branches one required property tells
// apart by its const/enum values: SearchCriterion by `field`, each field's criterion by `operator`.
//
// What is valid does not change (the branches exclude each other anyway). What changes is the work
// on an invalid body: without it Ajv, reporting all errors, checks a criterion against every branch,
// and twenty `in` lists of a thousand bad elements yield some 200,000 errors and seconds of CPU; with
// it Ajv checks the one branch the tag names, so the errors are that branch's own (one per bad
// element). The published spec carries no `discriminator`: OpenAPI's reading of one without a
// `mapping` is "the tag is the schema's name", and Ajv refuses a `mapping`.
//
// Without what checking a request never reads: every operation's `responses`, the `responses`,
// `headers`, `examples` and `links` components (reached only from responses, or from examples), and
// the examples of parameters and request bodies. express-openapi-validator puts the whole document
// (dereferenced) under every operation's request schemas, and Ajv walks all of it for each: answers
// are most of the document, and every start walked them for nothing. The service
// checks its answers with validators compiled at generate time (generate-response-validators.mjs).
//
// One addition makes the validator check what the service's pipeline carries (its media facts come
// from media-shapes.mjs, the one derivation of how each body is read): a multipart body's file
// properties, and a bytes body, accept any value. The service reads multipart
// itself (packages/server/src/http/multipart-body.ts) and checks each file for real (that it is a
// file, its part's media type, its size, whether it is required) before the validator runs; the body
// it hands over holds web `File` objects (a bytes body: a Buffer bounded by its maxLength), which a
// `type: string` schema would refuse. The fields, the object's closedness and the required names stay
// the validator's. (HEAD of a GET is checked as the GET: packages/server/src/http/head-as-get.ts.)
import { resolveRef } from '../../packages/contract/src/json-nodes.mjs';
import { requestMedia } from './media-shapes.mjs';

const schemaPrefix = '#/components/schemas/';

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolve(schemas, node) {
  const ref = node?.$ref;
  return typeof ref === 'string' && ref.startsWith(schemaPrefix) ? schemas[ref.slice(schemaPrefix.length)] : node;
}

/** The tag values a branch allows for `name`, or undefined when it does not pin the property down. */
function tagValues(branch, name) {
  const property = branch?.properties?.[name];
  if (!isObject(property)) return undefined;
  if (typeof property.const === 'string') return [property.const];
  if (Array.isArray(property.enum) && property.enum.every((value) => typeof value === 'string')) return property.enum;
  return undefined;
}

/** The property that tells the branches of `node.oneOf` apart, as Ajv's discriminator needs it, if any. */
function tagProperty(schemas, node) {
  const branches = node.oneOf.map((branch) => resolve(schemas, branch));
  if (branches.some((branch) => !isObject(branch))) return undefined;
  const candidates = Object.keys(branches[0].properties ?? {});
  return candidates.find((name) => {
    const required = (schema) => Array.isArray(schema.required) && schema.required.includes(name);
    if (!required(node) && !branches.every(required)) return false;
    const seen = new Set();
    for (const branch of branches) {
      const values = tagValues(branch, name);
      if (values === undefined) return false;
      for (const value of values) {
        if (seen.has(value)) return false;
        seen.add(value);
      }
    }
    return true;
  });
}

function annotate(schemas, node) {
  if (Array.isArray(node)) {
    for (const child of node) annotate(schemas, child);
    return;
  }
  if (!isObject(node)) return;
  if (Array.isArray(node.oneOf) && node.discriminator === undefined) {
    const propertyName = tagProperty(schemas, node);
    if (propertyName !== undefined) node.discriminator = { propertyName };
  }
  for (const child of Object.values(node)) annotate(schemas, child);
}

/**
 * The spec with Ajv's discriminator hints (what the service's validator and the MSW handlers' request
 * checks compile their schemas from).
 * @param {{components?: {schemas?: Record<string, unknown>}}} spec the bundled spec (not modified)
 */
export function withDiscriminatorHints(spec) {
  const copy = structuredClone(spec);
  annotate(copy.components?.schemas ?? {}, copy);
  return copy;
}

/** Components that only answers (and examples) refer to. */
export const answerOnlyComponents = ['responses', 'headers', 'examples', 'links'];
const operationMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` in `node` that points into one of the removed components; none may be left. */
function refsIntoRemoved(node, found = []) {
  if (Array.isArray(node)) for (const child of node) refsIntoRemoved(child, found);
  else if (isObject(node)) {
    if (typeof node.$ref === 'string' && answerOnlyComponents.some((name) => node.$ref.startsWith(`#/components/${name}/`))) found.push(node.$ref);
    for (const child of Object.values(node)) refsIntoRemoved(child, found);
  }
  return found;
}

function withoutExamples(objects) {
  for (const object of objects ?? []) {
    if (!isObject(object)) continue;
    delete object.example;
    delete object.examples;
    for (const mediaType of Object.values(object.content ?? {})) withoutExamples([mediaType]);
  }
}

/**
 * The operation's request body with its uploads accepting any value: a multipart body's file
 * properties (an array of files keeps its `maxItems`), and a bytes body's schema (the service reads
 * bytes as a Buffer, bounded by the schema's `maxLength`, which a `type: string` schema would refuse).
 * The request body and the edited schemas are inlined where they were references, so that a component
 * another body uses stays as published.
 */
function withUploadsUnchecked(spec, operation, where) {
  const media = requestMedia(spec, operation, where)?.media ?? [];
  const uploads = media.filter((facts) => facts.kind === 'bytes' || (facts.kind === 'multipart' && facts.parts.some((part) => part.kind === 'file')));
  if (uploads.length === 0) return;
  const body = structuredClone(resolveRef(spec, operation.requestBody));
  for (const facts of uploads) {
    const content = body.content[facts.mediaType];
    if (facts.kind === 'bytes') {
      content.schema = {};
      continue;
    }
    content.schema = structuredClone(resolveRef(spec, content.schema));
    for (const file of facts.parts.filter((part) => part.kind === 'file')) {
      const property = resolveRef(spec, content.schema.properties[file.name]) ?? {};
      content.schema.properties[file.name] = file.multiple
        ? { type: 'array', items: {}, ...(typeof property.maxItems === 'number' ? { maxItems: property.maxItems } : {}) }
        : {};
    }
  }
  operation.requestBody = body;
}

/**
 * What the service's request validator compiles: the spec with the discriminator hints, without the
 * answers and the examples, with uploads left to the service.
 * @param {{paths?: Record<string, Record<string, unknown>>, components?: Record<string, unknown>}} spec the bundled spec (not modified)
 */
export function validatorSpec(spec) {
  const copy = withDiscriminatorHints(spec);
  for (const name of answerOnlyComponents) delete copy.components?.[name];
  withoutExamples(Object.values(copy.components?.parameters ?? {}));
  withoutExamples(Object.values(copy.components?.requestBodies ?? {}));
  for (const [path, pathItem] of Object.entries(copy.paths ?? {})) {
    withoutExamples(pathItem.parameters);
    for (const method of operationMethods) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      delete operation.responses;
      withoutExamples(operation.parameters);
      withoutExamples([operation.requestBody]);
      withUploadsUnchecked(copy, operation, `${method.toUpperCase()} ${path}`);
    }
  }
  const dangling = refsIntoRemoved(copy);
  if (dangling.length > 0) throw new Error(`validator spec: a request still refers to a removed component: ${[...new Set(dangling)].join(', ')}`);
  return copy;
}
