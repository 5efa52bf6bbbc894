// fast-check arbitraries read from the bundled spec: valid values of any request schema, and values
// made invalid on purpose (wrong types, missing required fields, unknown and prototype keys, numbers
// and strings past their bounds, deep nesting, huge arrays). Nothing here repeats a schema: each
// arbitrary is derived from the spec at run time.
import fc from 'fast-check';
import { loadSpec, searchRules } from '@invoice-api/contract';

type Schema = Record<string, unknown>;
const spec = loadSpec();

export function resolveRef(schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; typeof current['$ref'] === 'string' && depth < 10; depth += 1) {
    const path = (current['$ref'] as string).replace(/^#\//, '').split('/');
    let node: unknown = spec;
    for (const segment of path) node = (node as Schema)[segment];
    current = node as Schema;
  }
  return current;
}

export function componentSchema(name: string): Schema {
  return resolveRef({ $ref: `#/components/schemas/${name}` });
}

/** Ids that exist in the seeded database, so valid requests reach the handlers' real paths too. */
export interface KnownIds {
  clientIds: number[];
  deliveryIds: number[];
  invoiceIds: number[];
  userIds: number[];
}

const isoDate = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true });

/**
 * Strings of every kind: plain, any code unit (lone surrogates, control characters), emoji and
 * right-to-left text. U+0000 is left out here: PostgreSQL cannot store it, and its own test in
 * abuse.test.ts pins that case down, so one known failure does not stop the fuzzing of the rest.
 */
function anyString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  // Filtered here, not with fc.filter: a filter that no constant passes would never finish.
  const samples = ['🧾 Rechnung', 'فاتورة', 'Ω≈ç√∫', 'a\u0001b', "O'Brien; --", '%_\\'].filter((text) => text.length >= minLength && text.length <= maxLength);
  const kinds = [
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'binary' }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    ...(samples.length > 0 ? [fc.constantFrom(...samples)] : []),
  ];
  return fc.oneof(...kinds).map((text) => text.replaceAll('\u0000', '\u0001'));
}

function decimals(format: unknown): number | undefined {
  return format === 'decimal2' ? 2 : format === 'decimal3' ? 3 : format === 'decimal4' ? 4 : undefined;
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] : -1e12;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : 1e12;
  const exclusiveMin = typeof schema['exclusiveMinimum'] === 'number';
  if (integer) return fc.integer({ min: Math.ceil(min) + (exclusiveMin ? 1 : 0), max: Math.floor(max) });
  const places = decimals(schema['format']) ?? 2;
  const scale = 10 ** places;
  return fc
    .integer({ min: Math.ceil(min * scale) + (exclusiveMin ? 1 : 0), max: Math.floor(max * scale) })
    .map((units) => Number((units / scale).toFixed(places)));
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as string[]));
  if (schema['format'] === 'date') return isoDate.map((date) => date.toISOString().slice(0, 10));
  if (schema['format'] === 'date-time') return isoDate.map((date) => date.toISOString());
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 200;
  if (typeof schema['pattern'] === 'string') {
    return fc.stringMatching(new RegExp(schema['pattern'])).filter((text) => text.length >= minLength && text.length <= maxLength);
  }
  return anyString(minLength, Math.min(maxLength, 300));
}

/** A valid search criterion, from the search allow-list the spec carries. */
export function criterionArbitrary(): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(searchRules.fields) as Array<[string, { type: string; operators: readonly string[] }]>;
  const scalarFor = (type: string): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'integer':
        return fc.integer({ min: -5, max: 2_000_000 });
      case 'number':
        return fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100);
      case 'date':
        return isoDate.map((date) => date.toISOString().slice(0, 10));
      case 'date-time':
        return fc.oneof(
          isoDate.map((date) => date.toISOString()),
          isoDate.map((date) => date.toISOString().slice(0, 10)),
        );
      case 'status':
        return fc.constantFrom('draft', 'sent', 'paid', 'overdue', 'cancelled');
      case 'currency':
        return fc.stringMatching(/^[A-Z]{3}$/);
      default:
        return anyString(0, 100);
    }
  };
  return fc.constantFrom(...fields).chain(([field, rule]) =>
    fc.constantFrom(...rule.operators).chain((operator) => {
      let value: fc.Arbitrary<unknown>;
      if (operator === 'like') value = anyString(1, 200);
      else if (operator === 'in') value = fc.array(scalarFor(rule.type), { minLength: 1, maxLength: 20 });
      else if (operator === 'between') value = fc.tuple(scalarFor(rule.type), scalarFor(rule.type)).map((pair) => [...pair].sort(compareLoose));
      else value = scalarFor(rule.type);
      return value.map((v) => ({ field, operator, value: v }));
    }),
  );
}

function compareLoose(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Valid values of `schema`; property names that hold ids prefer ids that exist. */
export function validArbitrary(schema: Schema, known: KnownIds, name = ''): fc.Arbitrary<unknown> {
  const resolved = resolveRef(schema);
  if (name === 'criteria') return fc.array(criterionArbitrary(), { maxLength: 5 });
  if (name === 'client_id' || name === 'contact_id')
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known.clientIds) }, { weight: 1, arbitrary: numberArbitrary(resolved, true) });
  if (name === 'delivery_id')
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known.deliveryIds) }, { weight: 1, arbitrary: numberArbitrary(resolved, true) });
  const type = Array.isArray(resolved['type']) ? resolved['type'][0] : resolved['type'];
  switch (type) {
    case 'object': {
      const properties = (resolved['properties'] ?? {}) as Record<string, Schema>;
      const required = new Set((resolved['required'] ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties)) record[key] = validArbitrary(property, known, key);
      return fc.record(record, { requiredKeys: [...required] });
    }
    case 'array': {
      const items = (resolved['items'] ?? {}) as Schema;
      const minLength = typeof resolved['minItems'] === 'number' ? resolved['minItems'] : 0;
      const maxLength = Math.min(typeof resolved['maxItems'] === 'number' ? resolved['maxItems'] : 10, 8);
      return fc.array(validArbitrary(items, known), { minLength, maxLength: Math.max(minLength, maxLength) });
    }
    case 'integer':
      return numberArbitrary(resolved, true);
    case 'number':
      return numberArbitrary(resolved, false);
    case 'boolean':
      return fc.boolean();
    default:
      return stringArbitrary(resolved);
  }
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** A value of a JSON type other than the schema's, for a wrong-type mutation. */
function wrongTypeValue(schema: Schema): fc.Arbitrary<unknown> {
  const types = new Set([resolveRef(schema)['type']].flat());
  const candidates: Array<fc.Arbitrary<unknown>> = [];
  if (!types.has('string')) candidates.push(fc.constantFrom('1', 'true', '', 'null'));
  if (!types.has('number') && !types.has('integer')) candidates.push(fc.constantFrom(0, -1, 1.5, 1e308));
  else if (!types.has('number')) candidates.push(fc.constantFrom(1.5, 0.001));
  if (!types.has('object')) candidates.push(fc.constant({ nested: true }));
  if (!types.has('array')) candidates.push(fc.constant([1, 2]));
  if (!types.has('boolean')) candidates.push(fc.boolean());
  candidates.push(fc.constant(null));
  return fc.oneof(...candidates);
}

/**
 * Out of bounds for the schema (past maximum, too long, too many items), when it has a bound. Too many
 * items means 10,000 copies of one valid item: invalid items by the thousand are their own case
 * (abuse.test.ts), because each costs the validator far more than the bound itself.
 */
function outOfBounds(schema: Schema, known: KnownIds): fc.Arbitrary<unknown> | undefined {
  const resolved = resolveRef(schema);
  if (typeof resolved['maximum'] === 'number') return fc.constantFrom(1e308, Number.MAX_SAFE_INTEGER + 2, resolved['maximum'] + 1);
  if (typeof resolved['maxLength'] === 'number') return anyString(1, 1).map((unit) => unit.repeat((resolved['maxLength'] as number) + 1));
  if (typeof resolved['maxItems'] === 'number') {
    return validArbitrary((resolved['items'] ?? {}) as Schema, known).map((item) => Array.from({ length: 10_000 }, () => item));
  }
  if (typeof resolved['pattern'] === 'string') return fc.constantFrom('', ' ', 'lower', '🧾🧾🧾', 'x'.repeat(5_000));
  if (resolved['format'] === 'date') return fc.constantFrom('2026-02-30', '26-1-1', '2026-13-01', 'today', '2026-01-01T00:00:00Z');
  return undefined;
}

export type Mutation = { kind: string; body: unknown };

/**
 * A body made invalid for `schema` (an object schema with additionalProperties false), with the kind
 * of mutation for the failure message. Every kind is invalid by construction.
 */
export function invalidBodyArbitrary(schema: Schema, known: KnownIds): fc.Arbitrary<Mutation> {
  const resolved = resolveRef(schema);
  const properties = (resolved['properties'] ?? {}) as Record<string, Schema>;
  const required = (resolved['required'] ?? []) as string[];
  const valid = validArbitrary(resolved, known) as fc.Arbitrary<Record<string, unknown>>;
  const names = Object.keys(properties);
  const mutations: Array<fc.Arbitrary<Mutation>> = [
    fc.constantFrom<unknown>(42, 'text', [], [1, 2, 3], true).map((body) => ({ kind: 'not an object', body })),
    fc.tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknown_field', 'toString')).map(([body, key]) => ({
      kind: `unknown key ${key}`,
      // JSON.parse makes `__proto__` an own property, as a hostile client's JSON would.
      body: JSON.parse(JSON.stringify(body).replace(/^\{/, `{${JSON.stringify(key)}:{"polluted":true}${Object.keys(body).length > 0 ? ',' : ''}`)),
    })),
    fc
      .tuple(valid, fc.constantFrom(...names))
      .chain(([body, key]) => wrongTypeValue(properties[key]!).map((value) => ({ kind: `wrong type for ${key}`, body: { ...body, [key]: value } }))),
    fc
      .tuple(valid, fc.constantFrom(...names), fc.integer({ min: 200, max: 3_000 }))
      .map(([body, key, depth]) => ({ kind: `deep nesting in ${key}`, body: { ...body, [key]: nested(depth) } })),
  ];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([body, key]) => {
        const copy = { ...body };
        delete copy[key];
        return { kind: `missing ${key}`, body: copy };
      }),
    );
  }
  const bounded = names.filter((key) => outOfBounds(properties[key]!, known) !== undefined);
  if (bounded.length > 0) {
    mutations.push(
      fc
        .tuple(valid, fc.constantFrom(...bounded))
        .chain(([body, key]) => outOfBounds(properties[key]!, known)!.map((value) => ({ kind: `out of bounds ${key}`, body: { ...body, [key]: value } }))),
    );
  }
  return fc.oneof(...mutations);
}
