// The response-validator generator on small specs: what it compiles (a property named like an
// annotation keyword stays a property, an extensible enum is checked for its type only, an answer
// without a JSON body passes) and what it refuses (a schema needing an Ajv runtime helper the
// module does not carry, a `default` answer).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { responseValidatorsModule } from '../../../scripts/lib/generate-response-validators.mjs';
import type { ResponseValidatorTable } from '../src/response-validation.js';

const scratch = mkdtempSync(join(tmpdir(), 'response-validators-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function specWith(schemas: Record<string, unknown>, responses: Record<string, unknown>) {
  return { openapi: '3.1.0', paths: { '/notes': { get: { operationId: 'listNotes', responses } } }, components: { schemas } };
}

const json = (name: string) => ({ description: 'x', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } });

/** Writes the module beside the client's sources it imports, and loads it. */
async function load(spec: object): Promise<Record<number, (data: unknown) => boolean>> {
  const source = responseValidatorsModule(spec).replaceAll("'../src/", `'${pathToFileURL(join(import.meta.dirname, '../src')).href}/`);
  const file = join(scratch, `validators-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  const module = (await import(pathToFileURL(file).href)) as { responseValidators: Record<string, ResponseValidatorTable[keyof ResponseValidatorTable]> };
  return module.responseValidators.listNotes ?? {};
}

describe('responseValidatorsModule', () => {
  it('keeps properties named like annotations, closes objects as the spec does, and relaxes only extensible enums', async () => {
    const spec = specWith(
      {
        Note: {
          type: 'object',
          description: 'a note',
          additionalProperties: false,
          required: ['description', 'kind', 'code'],
          properties: {
            description: { type: 'string', example: 'x' },
            kind: { type: 'string', enum: ['a', 'b'] },
            code: { type: 'string', enum: ['known'], 'x-extensible-enum': true },
          },
        },
      },
      { 200: json('Note'), 204: { description: 'nothing' } },
    );
    const validators = await load(spec);
    const check = validators[200];
    expect(check?.({ description: 'd', kind: 'a', code: 'known' })).toBe(true);
    expect(check?.({ description: 'd', kind: 'a', code: 'not-yet-listed' })).toBe(true);
    expect(check?.({ description: 'd', kind: 'c', code: 'known' })).toBe(false);
    expect(check?.({ kind: 'a', code: 'known' })).toBe(false);
    expect(check?.({ description: 'd', kind: 'a', code: 'known', extra: 1 })).toBe(false);
    expect(validators[204]?.(undefined)).toBe(true);
  });

  it('refuses a schema whose code would need an Ajv runtime helper, naming it', () => {
    const spec = specWith({ Tags: { type: 'array', uniqueItems: true, items: { type: 'object' } } }, { 200: json('Tags') });
    expect(() => responseValidatorsModule(spec)).toThrow(/needs require\("ajv\/dist\/runtime\/equal"\)/);
  });

  it('refuses a default answer: every answer it checks has a status', () => {
    expect(() => responseValidatorsModule(specWith({}, { default: { description: 'x' } }))).toThrow(/listNotes documents a "default" answer/);
  });
});
