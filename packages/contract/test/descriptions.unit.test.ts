// What a consumer reads in the reference: every schema and every property says what it is, at any
// depth: inside `oneOf`/`anyOf`/`allOf` branches, array items and nested objects too, since a
// reference renders each branch's properties with their own descriptions.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/index.js';

type Schema = { description?: string; properties?: Record<string, Schema> } & Record<string, unknown>;

/** Keywords whose value is one subschema, and those whose value is a list or a map of subschemas. */
const subschemaKeywords = ['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const subschemaListKeywords = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
const subschemaMapKeywords = ['patternProperties', '$defs', 'dependentSchemas'];

interface PropertyAt {
  /** Where the property sits, e.g. `AmountCriterion.oneOf[1].value`. */
  path: string;
  name: string;
  schema: Schema;
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The subschemas directly under `schema` (not its properties), each with the path suffix naming it. */
function subschemasOf(schema: Schema): Array<[string, Schema]> {
  const found: Array<[string, Schema]> = [];
  for (const keyword of subschemaKeywords) {
    const value = schema[keyword];
    if (isSchema(value)) found.push([`.${keyword}`, value]);
  }
  for (const keyword of subschemaListKeywords) {
    const value = schema[keyword];
    if (!Array.isArray(value)) continue;
    for (const [index, branch] of value.entries()) if (isSchema(branch)) found.push([`.${keyword}[${index}]`, branch]);
  }
  for (const keyword of subschemaMapKeywords) {
    const value = schema[keyword];
    if (!isSchema(value)) continue;
    for (const [key, branch] of Object.entries(value)) if (isSchema(branch)) found.push([`.${keyword}.${key}`, branch]);
  }
  return found;
}

/** Every property declared anywhere inside `schema` (not across `$ref`: each component is walked on its own). */
function* propertiesWithin(schema: Schema, path: string): Generator<PropertyAt> {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    yield { path: `${path}.${name}`, name, schema: property };
    yield* propertiesWithin(property, `${path}.${name}`);
  }
  for (const [suffix, subschema] of subschemasOf(schema)) yield* propertiesWithin(subschema, `${path}${suffix}`);
}

const schemas = loadSpec().components.schemas as Record<string, Schema>;
const checked = Object.entries(schemas);

describe('descriptions', () => {
  it.each(checked)('schema %s and each property at any depth have one', (name, schema) => {
    expect(schema.description, name).toMatch(/\S/);
    const undescribed = [...propertiesWithin(schema, name)]
      .filter((property) => !/\S/.test(property.schema.description ?? ''))
      .map((property) => property.path);
    expect(undescribed).toEqual([]);
  });

  it('the walk reaches the properties of every branch, item and nested object', () => {
    const nested: Schema = {
      properties: { outer: { type: 'object', properties: { inner: {} } } },
      oneOf: [{ properties: { inOneOf: {} } }],
      anyOf: [{ properties: { inAnyOf: {} } }],
      allOf: [{ properties: { inAllOf: {} } }],
      items: { properties: { inItems: {} } },
      prefixItems: [{ properties: { inPrefixItems: {} } }],
      additionalProperties: { properties: { inAdditional: {} } },
      if: { properties: { inIf: {} } },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a plain schema object that is never awaited
      then: { properties: { inThen: {} } },
      else: { properties: { inElse: {} } },
      not: { properties: { inNot: {} } },
      patternProperties: { '^x-': { properties: { inPattern: {} } } },
    };
    expect([...propertiesWithin(nested, 'S')].map((property) => property.path)).toEqual([
      'S.outer',
      'S.outer.inner',
      'S.items.inItems',
      'S.additionalProperties.inAdditional',
      'S.not.inNot',
      'S.if.inIf',
      'S.then.inThen',
      'S.else.inElse',
      'S.oneOf[0].inOneOf',
      'S.anyOf[0].inAnyOf',
      'S.allOf[0].inAllOf',
      'S.prefixItems[0].inPrefixItems',
      'S.patternProperties.^x-.inPattern',
    ]);
  });

  it('every id property says what it identifies, not only that it is an id', () => {
    const generic = schemas.Id?.description;
    for (const [name, schema] of checked) {
      for (const property of propertiesWithin(schema, name)) {
        if (property.name === 'id' || property.name.endsWith('_id')) expect(property.schema.description, property.path).not.toBe(generic);
      }
    }
  });
});
