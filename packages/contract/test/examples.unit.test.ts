// Every named example in the bundled spec validates against its schema, custom number formats
// included (Redocly's lint checks schemas but ignores our decimal formats).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadSpec, numberFormats, decimalPlaces } from '../src/index.js';

const spec = loadSpec();

function newValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const format of numberFormats) ajv.addFormat(format.name, { type: 'number', validate: format.validate });
  ajv.addSchema({ ...spec, $id: 'spec' });
  return ajv;
}

type Media = { schema: unknown; examples?: Record<string, { $ref?: string; value?: unknown }> };

function collectExamples(): Array<{ where: string; schema: unknown; value: unknown }> {
  const found: Array<{ where: string; schema: unknown; value: unknown }> = [];
  const resolve = (ref: string): unknown =>
    ref
      .split('/')
      .slice(1)
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], spec);
  const visitMedia = (where: string, media: Media): void => {
    for (const [name, example] of Object.entries(media.examples ?? {})) {
      const value = example.$ref ? (resolve(example.$ref) as { value: unknown }).value : example.value;
      found.push({ where: `${where} ${name}`, schema: media.schema, value });
    }
  };
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as { requestBody?: { content: Record<string, Media> }; responses: Record<string, { $ref?: string; content?: Record<string, Media> }> };
      for (const media of Object.values(op.requestBody?.content ?? {})) visitMedia(`${method} ${path} request`, media);
      for (const [status, response] of Object.entries(op.responses)) {
        const resolved = (response.$ref ? resolve(response.$ref) : response) as { content?: Record<string, Media> };
        for (const media of Object.values(resolved.content ?? {})) visitMedia(`${method} ${path} ${status}`, media);
      }
    }
  }
  return found;
}

describe('examples', () => {
  const examples = collectExamples();
  const ajv = newValidator();

  it('are present for every documented answer', () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s validates', (_where, example) => {
    const schema = JSON.parse(JSON.stringify(example.schema).replaceAll('"#/components/', '"spec#/components/')) as object;
    const validate = ajv.compile(schema);
    const ok = validate(example.value);
    expect(validate.errors ?? [], JSON.stringify(example.value)).toEqual([]);
    expect(ok).toBe(true);
  });
});

describe('decimal formats', () => {
  it.each([
    [19.99, 2],
    [0.07, 2],
    [100, 0],
    [1.5, 1],
    [12.3456, 4],
    [1e-7, 7],
    [1.25e-5, 7],
    [999999999999.99, 2],
  ])('%d has %d decimal places', (value, places) => {
    expect(decimalPlaces(value)).toBe(places);
  });

  it('rejects a third decimal in money and accepts two', () => {
    const money = numberFormats.find((f) => f.name === 'decimal2');
    expect(money?.validate(19.99)).toBe(true);
    expect(money?.validate(19.999)).toBe(false);
    expect(money?.validate(Number.NaN)).toBe(false);
  });
});
