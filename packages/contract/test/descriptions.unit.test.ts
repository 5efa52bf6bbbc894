// What a consumer reads in the reference: every schema and every property says what it is.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/index.js';

type Schema = { description?: string; properties?: Record<string, Schema> };

const schemas = loadSpec().components.schemas as Record<string, Schema>;
const checked = Object.entries(schemas);

describe('descriptions', () => {
  it.each(checked)('schema %s and each of its properties have one', (name, schema) => {
    expect(schema.description, name).toMatch(/\S/);
    for (const [property, value] of Object.entries(schema.properties ?? {})) expect(value.description, `${name}.${property}`).toMatch(/\S/);
  });

  it('every id property says what it identifies, not only that it is an id', () => {
    const generic = schemas.Id?.description;
    for (const [name, schema] of checked) {
      for (const [property, value] of Object.entries(schema.properties ?? {})) {
        if (property === 'id' || property.endsWith('_id')) expect(value.description, `${name}.${property}`).not.toBe(generic);
      }
    }
  });
});
