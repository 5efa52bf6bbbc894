// What the service's request validator compiles (scripts/lib/validator-spec.mjs): the published rules
// for requests, with Ajv's discriminator hints, and nothing that only answers or examples reach.
import { describe, expect, it } from 'vitest';
import { answerOnlyComponents, validatorSpec, withDiscriminatorHints } from '../../../scripts/lib/validator-spec.mjs';
import { loadSpec, operationTable } from '../src/index.js';

type Json = Record<string, unknown>;
type Spec = ReturnType<typeof loadSpec>;
const methods = ['get', 'put', 'post', 'delete', 'patch'];

function operations(spec: Spec): Array<[string, Json]> {
  return Object.entries(spec.paths as Record<string, Json>).flatMap(([path, item]) =>
    methods.filter((method) => item[method] !== undefined).map((method): [string, Json] => [`${method} ${path}`, item[method] as Json]),
  );
}

/**
 * The published request body as the validator takes it: a multipart body's file parts accept any value
 * (the service reads and checks files itself), with its schema inlined from the component it named.
 */
function withUploadsOpen(spec: Spec, operationId: unknown, body: unknown): unknown {
  const entry = Object.values(operationTable).find((candidate) => candidate.operationId === operationId);
  const media = entry?.requestMedia?.media ?? [];
  if (!media.some((facts) => facts.kind === 'multipart') || typeof body !== 'object' || body === null) return body;
  const copy = structuredClone(body) as { content: Record<string, { schema: Json }> };
  for (const facts of media) {
    if (facts.kind !== 'multipart') continue;
    const content = copy.content[facts.mediaType]!;
    const reference = content.schema['$ref'];
    const schema = structuredClone(
      typeof reference === 'string'
        ? ((spec.components['schemas'] as Record<string, Json>)[reference.replace('#/components/schemas/', '')] as Json)
        : content.schema,
    );
    for (const part of facts.parts) if (part.kind === 'file') (schema['properties'] as Json)[part.name] = {};
    content.schema = schema;
  }
  return copy;
}

function withoutHints<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, child: unknown) => (key === 'discriminator' ? undefined : child))) as T;
}

/** The parameter or request body without its examples, as a request's check sees it. */
function withoutExamples(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (key, child: unknown) => (key === 'example' || key === 'examples' ? undefined : child)));
}

describe('discriminator hints', () => {
  it("adds Ajv's discriminator where one required property tells a oneOf's branches apart, and nowhere else", () => {
    const spec = loadSpec();
    const hinted = withDiscriminatorHints(spec);
    const schemas = hinted.components['schemas'] as Record<string, Json>;
    expect(schemas['SearchCriterion']?.['discriminator']).toEqual({ propertyName: 'field' });
    for (const name of ['AmountCriterion', 'StatusCriterion', 'DescriptionCriterion'])
      expect(schemas[name]?.['discriminator']).toEqual({ propertyName: 'operator' });
    expect(withoutHints(hinted)).toEqual(spec);
    expect(spec.components['schemas']?.['SearchCriterion']).not.toHaveProperty('discriminator');
  });
});

describe('the request validator spec', () => {
  const spec = loadSpec();
  const hinted = withDiscriminatorHints(spec);
  const compiled = validatorSpec(spec);

  it('keeps every operation, its parameters and its request body, and every schema and parameter, as published with the hints', () => {
    expect(operations(compiled).map(([name]) => name)).toEqual(operations(spec).map(([name]) => name));
    const published = new Map(operations(hinted));
    expect(operations(compiled).length).toBeGreaterThan(10);
    for (const [name, operation] of operations(compiled)) {
      const original = published.get(name)!;
      expect(operation['parameters'], name).toEqual(withoutExamples(original['parameters']));
      expect(operation['requestBody'], name).toEqual(withUploadsOpen(hinted, original['operationId'], withoutExamples(original['requestBody'])));
      expect(operation['operationId'], name).toBe(original['operationId']);
      expect(operation['security'], name).toEqual(original['security']);
    }
    expect(compiled.components['schemas']).toEqual(hinted.components['schemas']);
    expect(compiled.components['parameters']).toEqual(withoutExamples(hinted.components['parameters']));
  });

  it('drops the answers, the components only they reach and the examples', () => {
    for (const [name, operation] of operations(compiled)) expect(operation, name).not.toHaveProperty('responses');
    for (const name of answerOnlyComponents) {
      expect(spec.components, name).toHaveProperty(name);
      expect(compiled.components, name).not.toHaveProperty(name);
    }
    const parameters = Object.values(compiled.components['parameters'] as Record<string, Json>);
    expect(parameters.length).toBeGreaterThan(0);
    for (const parameter of parameters) expect(Object.keys(parameter)).not.toContain('examples');
    expect(Object.values(spec.components['parameters'] as Record<string, Json>).some((parameter) => 'examples' in parameter || 'example' in parameter)).toBe(
      true,
    );
    expect(JSON.stringify(compiled).length).toBeLessThan(JSON.stringify(spec).length / 2);
  });

  it('refuses a spec whose request refers to a component it drops', () => {
    const edited = structuredClone(spec);
    const [, operation] = operations(edited).find(([, candidate]) => candidate['requestBody'] !== undefined)!;
    const content = (operation['requestBody'] as { content: Record<string, Json> }).content;
    content['application/json']!['schema'] = { $ref: '#/components/headers/X-Request-Id' };
    expect(() => validatorSpec(edited)).toThrow('a request still refers to a removed component: #/components/headers/X-Request-Id');
  });
});
