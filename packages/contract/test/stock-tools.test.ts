// The published spec (what /openapi.json serves) loads in a consumer's stock tools unchanged: Ajv
// with its defaults (strict mode, 2020-12 dialect) plus the standard formats, swagger-parser's
// validator, and Prism. And it lets a client tolerate an added response field, while the strict
// bundle the service validates against still refuses one.
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type RunningPrism } from '../../../scripts/lib/prism.mjs';
import { loadSpec, numberFormats, publishedSpecPath, publishedSpecYamlPath } from '../src/index.js';

type Json = Record<string, unknown>;

const published = JSON.parse(readFileSync(publishedSpecPath, 'utf8')) as { paths: Record<string, Json>; components: { schemas: Record<string, Json> } };
const schemaNames = Object.keys(published.components.schemas);

/** Stock Ajv: no options, only the standard formats; each component schema under the id its `$ref`s use. */
function stockAjv(): Ajv2020 {
  const ajv = new Ajv2020();
  addFormats.default(ajv);
  for (const [name, schema] of Object.entries(published.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  return ajv;
}

function componentValidator(ajv: Ajv2020, name: string): ValidateFunction {
  const validate = ajv.getSchema(`#/components/schemas/${name}`);
  if (validate === undefined) throw new Error(`no schema ${name}`);
  return validate;
}

/** Every `schema` of a parameter, header or media type in the paths (the ones not in components). */
function inlineSchemas(node: unknown, where: string, found: Array<{ where: string; schema: Json }> = []): Array<{ where: string; schema: Json }> {
  if (Array.isArray(node)) {
    for (const [index, entry] of node.entries()) inlineSchemas(entry, `${where}/${index}`, found);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' && typeof value === 'object' && value !== null) found.push({ where: `${where}/schema`, schema: value as Json });
      else if (key !== 'examples' && key !== 'example') inlineSchemas(value, `${where}/${key}`, found);
    }
  }
  return found;
}

describe('stock Ajv (2020-12, default strict options, ajv-formats)', () => {
  const ajv = stockAjv();

  it.each(schemaNames)('compiles the component schema %s', (name) => {
    expect(() => componentValidator(ajv, name)).not.toThrow();
  });

  it('compiles every schema held inline (parameters, headers, media types)', () => {
    const schemas = inlineSchemas({ paths: published.paths, components: { ...published.components, schemas: {} } }, '#');
    expect(schemas.length).toBeGreaterThan(40);
    for (const { where, schema } of schemas) expect(() => ajv.compile(schema), where).not.toThrow();
  });

  it('accepts an unknown response field, because clients must tolerate additions', () => {
    const invoice = componentValidator(ajv, 'Invoice');
    const example = { ...sampleInvoice(), added_later: 'a field a future version sends' };
    expect(invoice(example), JSON.stringify(invoice.errors)).toBe(true);
    expect(componentValidator(ajv, 'InvoiceEnvelope')({ invoice: example, meta: {} })).toBe(true);
    expect(componentValidator(ajv, 'Error')({ error: 'not_found', message: 'x', trace_id: 'abc' })).toBe(true);
  });

  it('still rejects an unknown request property, as the service does', () => {
    const create = componentValidator(ajv, 'InvoiceCreate');
    const body = { client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-04-01' };
    expect(create(body)).toBe(true);
    expect(create({ ...body, discount: 5 })).toBe(false);
  });

  it('documents decimal places in words, where the strict bundle enforces them with its own formats', () => {
    const money = published.components.schemas.Money!;
    expect(money.format).toBeUndefined();
    expect(String(money.description)).toContain('at most 2 decimals');
    expect((loadSpec().components.schemas as Record<string, Json>).Money!.format).toBe('decimal2');
  });
});

describe('the strict bundle the service and the contract suite validate against', () => {
  it('refuses an undocumented response field', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    for (const format of numberFormats) ajv.addFormat(format.name, { type: 'number', validate: format.validate });
    for (const [name, schema] of Object.entries(loadSpec().components.schemas as Record<string, Json>)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const invoice = ajv.getSchema('#/components/schemas/Invoice')!;
    expect(invoice(sampleInvoice())).toBe(true);
    expect(invoice({ ...sampleInvoice(), added_later: 1 })).toBe(false);
  });
});

describe('@apidevtools/swagger-parser', () => {
  it('validates the published spec against the OpenAPI 3.1 schema and resolves every reference', async () => {
    const api = await SwaggerParser.validate(structuredClone(published) as never);
    expect(api.info.title).toBe(loadSpec().info.title);
  });
});

// Timeouts here are upper bounds that only end a hung run, not waits: Prism starts as a process and loads the spec
// (seconds when idle, a minute or more when the rest of the suite saturates the machine).
describe('Prism', () => {
  let prism: RunningPrism | undefined;
  beforeAll(async () => {
    prism = await startPrism({ mode: 'mock', spec: publishedSpecYamlPath });
  }, 180_000);
  afterAll(async () => {
    await prism?.stop();
  });

  it('mocks an operation from the published spec', async () => {
    const response = await fetch(`${prism!.url}/api/v1/invoices/42`, { headers: { authorization: 'Bearer anything' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { invoice: Json };
    expect(componentValidator(stockAjv(), 'InvoiceEnvelope')(body)).toBe(true);
  });
});

function sampleInvoice(): Json {
  return {
    id: 17,
    invoice_number: 'INV-000017',
    client_id: 3,
    client_name: 'Muster AG',
    amount: 1250.5,
    currency: 'CHF',
    status: 'paid',
    due_date: '2026-04-01',
    created_at: '2026-03-01T09:30:00.000Z',
    updated_at: '2026-03-05T14:00:00.000Z',
    description: 'Consulting, March',
  };
}
