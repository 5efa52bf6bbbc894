// What scripts/lib/validator-spec.mjs adds so that the request validator checks what the service's
// pipeline carries: uploads (multipart files, bytes bodies) left to the service's own readers, which
// check them for real; and nothing for HEAD, which the service checks as its GET (head-as-get.ts).
import { describe, expect, it } from 'vitest';
import { validatorSpec } from '../../../../scripts/lib/validator-spec.mjs';

const file = { type: 'string', format: 'binary', maxLength: 1024 };
const spec = {
  openapi: '3.1.0',
  info: { title: 'uploads', version: '1' },
  paths: {
    '/documents': {
      post: {
        operationId: 'upload',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { $ref: '#/components/schemas/Upload' },
              encoding: { file: { contentType: 'application/pdf' } },
            },
          },
        },
        responses: { '204': { description: 'stored' } },
      },
    },
    '/images/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: {
        operationId: 'getImage',
        parameters: [{ name: 'size', in: 'query', schema: { type: 'integer' } }],
        responses: { '200': { description: 'the image' } },
      },
      put: {
        operationId: 'putImage',
        requestBody: { required: true, content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png', maxLength: 2048 } } } },
        responses: { '204': { description: 'stored' } },
      },
    },
  },
  components: {
    schemas: {
      Upload: {
        type: 'object',
        additionalProperties: false,
        required: ['file'],
        properties: { file, pages: { type: 'array', maxItems: 3, items: file }, title: { type: 'string', maxLength: 20 } },
      },
    },
  },
};

/** The node at `path` in a JSON document. */
function at(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), value);
}

describe('the request validator spec of uploads', () => {
  const compiled: unknown = validatorSpec(structuredClone(spec));

  it('lets any value stand for a multipart file (kept as an array of files with its maxItems), and keeps the fields', () => {
    expect(at(compiled, 'paths', '/documents', 'post', 'requestBody', 'content', 'multipart/form-data', 'schema')).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['file'],
      properties: { file: {}, pages: { type: 'array', items: {}, maxItems: 3 }, title: { type: 'string', maxLength: 20 } },
    });
    // Inlined: the component stays as published, for anything else that uses it.
    expect(at(compiled, 'components', 'schemas', 'Upload', 'properties', 'file')).toEqual(file);
  });

  it('lets any value stand for a bytes body, which the service bounds by its maxLength', () => {
    expect(at(compiled, 'paths', '/images/{id}', 'put', 'requestBody', 'content', 'image/png', 'schema')).toEqual({});
  });

  it('adds no HEAD operation (the service checks HEAD of a GET as the GET)', () => {
    expect(at(compiled, 'paths', '/images/{id}', 'head')).toBeUndefined();
  });
});
