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

/** @param {{components?: {schemas?: Record<string, unknown>}}} spec the bundled spec (not modified) */
export function validatorSpec(spec) {
  const copy = structuredClone(spec);
  annotate(copy.components?.schemas ?? {}, copy);
  return copy;
}
