// The step that turns the strict bundle into the published one (scripts/lib/published-spec.mjs), on
// small documents: what it opens, what it keeps closed, what it strips, and what it refuses.
import { describe, expect, it } from 'vitest';
import { publishedSpec } from '../../../scripts/lib/published-spec.mjs';

function document(schemas: Record<string, unknown>, requestSchema = 'Create', responseSchema = 'Thing') {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${requestSchema}` } } } },
          responses: { '201': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseSchema}` } } } } },
        },
      },
    },
    components: { schemas },
  };
}

const money = { type: 'number', format: 'decimal2', description: 'An amount with at most 2 decimals.' };

describe('publishedSpec', () => {
  it('states each link of a response in its description, since Redoc does not render links', () => {
    const strict = document({ Create: { type: 'object' }, Thing: { type: 'object' } });
    const created = strict.paths['/things'].post.responses['201'] as Record<string, unknown>;
    created['links'] = {
      ReadIt: { $ref: '#/components/links/ReadIt' },
      Inline: { operationId: 'listThings', requestBody: { filter: { id: '$response.body#/id' } } },
    };
    (strict.components as Record<string, unknown>)['links'] = {
      ReadIt: { operationId: 'getThing', parameters: { thing_id: '$response.body#/id' }, description: 'Read the thing.' },
    };
    const published = publishedSpec(strict) as unknown as { paths: { '/things': { post: { responses: { '201': { description: string } } } } } };
    const description = published.paths['/things'].post.responses['201'].description;
    expect(description).toMatch(/^ok\n\n\*\*Links\*\*/);
    expect(description).toContain('- `ReadIt`: **getThing** with `thing_id` = `$response.body#/id`. Read the thing.');
    expect(description).toContain('- `Inline`: **listThings** with body `/filter/id` = `$response.body#/id`.');
    expect(created['description']).toBe('ok');
  });

  it('opens response objects, nested ones included, and keeps request objects closed', () => {
    const strict = document({
      Create: { type: 'object', additionalProperties: false, properties: { amount: { $ref: '#/components/schemas/Money' } } },
      Thing: { type: 'object', additionalProperties: false, properties: { line: { type: 'object', additionalProperties: false } } },
      Money: money,
    });
    const published = publishedSpec(strict);
    expect(published.components.schemas.Thing!.additionalProperties).toBeUndefined();
    expect(published.components.schemas.Thing!.properties!.line!.additionalProperties).toBeUndefined();
    expect(published.components.schemas.Create!.additionalProperties).toBe(false);
    // The strict document is left as it was.
    expect((strict.components.schemas.Thing as { additionalProperties?: boolean }).additionalProperties).toBe(false);
  });

  it('drops decimal formats and x- keywords, keeping the description', () => {
    const published = publishedSpec(document({ Create: { type: 'object', 'x-note': 1 }, Thing: { $ref: '#/components/schemas/Money' }, Money: money }));
    expect(published.components.schemas.Money).toEqual({ type: 'number', description: 'An amount with at most 2 decimals.' });
    expect(published.components.schemas.Create!['x-note']).toBeUndefined();
  });

  it('refuses a decimal format whose description does not state the decimals', () => {
    expect(() => publishedSpec(document({ Create: { type: 'object' }, Thing: { type: 'number', format: 'decimal3' } }))).toThrow(/at most 3 decimals/);
  });

  it('refuses a closed schema that requests and responses share', () => {
    const shared = { Create: { type: 'object', additionalProperties: false } };
    expect(() => publishedSpec(document(shared, 'Create', 'Create'))).toThrow(/used by requests and responses/);
  });
});
