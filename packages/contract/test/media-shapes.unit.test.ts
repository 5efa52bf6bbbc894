// The one description of how each body is carried (scripts/lib/media-shapes.mjs), read off the fixture
// spec of shapes: every kind of body, the multipart parts with their files' media types and sizes, the
// answers without a body, and each query parameter's serialization. Every layer reads these facts from
// the operation table; a wrong fact here would be wrong in all of them at once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { mediaKind } from '../../../scripts/lib/media-shapes.mjs';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';

const fixtureFile = fileURLToPath(new URL('./fixtures/shapes/openapi.yaml', import.meta.url));

/** A fresh copy of the fixture spec (single file, local references only: no bundling needed). */
function shapesSpec(): Record<string, unknown> {
  return parse(readFileSync(fixtureFile, 'utf8')) as Record<string, unknown>;
}

/** The object at `path` inside `document`, to edit in place; throws where there is none. */
function at(document: unknown, ...path: Array<string | number>): Record<string, unknown> {
  let node = document;
  for (const key of path) node = (node as Record<string | number, unknown> | undefined)?.[key];
  if (typeof node !== 'object' || node === null) throw new Error(`nothing at ${path.join('.')}`);
  return node as Record<string, unknown>;
}

const table = buildTable(shapesSpec());

describe('how each body is carried, from the fixture spec of shapes', () => {
  it('tells bytes, text, JSON and an answer without a body apart, status by status', () => {
    expect(table.downloadReport?.responseMedia['200']).toEqual([{ mediaType: 'application/pdf', kind: 'bytes', maxLength: 10485760 }]);
    expect(table.streamLog?.responseMedia['200']).toEqual([{ mediaType: 'text/plain', kind: 'text', charset: 'utf-8' }]);
    expect(table.removeReport?.responseMedia['204']).toEqual([]);
    expect(table.removeReport?.responseMedia['404']).toEqual([{ mediaType: 'application/json', kind: 'json' }]);
  });

  it('keeps two media types of one status in the order the spec lists them', () => {
    expect(table.exportReports?.responseMedia['200']).toEqual([
      { mediaType: 'application/json', kind: 'json' },
      { mediaType: 'text/csv', kind: 'text', charset: 'utf-8', maxLength: 1000000 },
    ]);
  });

  it('describes a multipart body part by part: files with their media types and largest size, fields', () => {
    expect(table.uploadDocument?.requestMedia).toEqual({
      required: true,
      media: [
        {
          mediaType: 'multipart/form-data',
          kind: 'multipart',
          parts: [
            { name: 'file', required: true, kind: 'file', multiple: false, contentTypes: ['application/pdf', 'image/png'], maxLength: 1048576 },
            { name: 'title', required: false, kind: 'field', multiple: false },
          ],
        },
      ],
    });
    const pair = table.uploadPair?.requestMedia?.media[0];
    expect(pair?.kind === 'multipart' ? pair.parts.map((part) => [part.name, part.kind, part.required]) : pair).toEqual([
      ['front', 'file', true],
      ['back', 'file', true],
    ]);
  });

  it('takes a file from contentMediaType where no encoding names it, and an array of files as multiple', () => {
    const spec = shapesSpec();
    const media = at(spec, 'paths', '/documents/pair', 'post', 'requestBody', 'content', 'multipart/form-data');
    delete media.encoding;
    at(media, 'schema', 'properties').back = { type: 'array', maxItems: 3, items: { type: 'string', contentMediaType: 'image/jpeg' } };
    const parts = buildTable(spec).uploadPair?.requestMedia?.media[0];
    expect(parts?.kind === 'multipart' ? parts.parts : parts).toEqual([
      { name: 'front', required: true, kind: 'file', multiple: false, contentTypes: ['image/png'], maxLength: 1048576 },
      { name: 'back', required: true, kind: 'file', multiple: true, contentTypes: ['image/jpeg'], maxItems: 3 },
    ]);
  });

  it('reads a text request body as text with its bounds', () => {
    expect(table.postNote?.requestMedia).toEqual({ required: true, media: [{ mediaType: 'text/plain', kind: 'text', charset: 'utf-8', maxLength: 1000 }] });
    expect(table.listThings?.requestMedia).toBeNull();
  });

  it("gives each query parameter its style and explode, OpenAPI's defaults filled in", () => {
    expect(table.listThings?.queryParams.map(({ name, style, explode, shape }) => ({ name, style, explode, shape }))).toEqual([
      { name: 'status', style: 'form', explode: true, shape: 'array' },
      { name: 'tags', style: 'form', explode: false, shape: 'array' },
      { name: 'filter', style: 'deepObject', explode: true, shape: 'object' },
    ]);
    const spec = shapesSpec();
    const status = at(spec, 'paths', '/things', 'get', 'parameters', 0);
    delete status.style;
    delete status.explode;
    expect(buildTable(spec).listThings?.queryParams[0]).toMatchObject({ style: 'form', explode: true });
  });

  it('refuses what no layer could carry, naming the operation', () => {
    const urlEncoded = shapesSpec();
    const note = at(urlEncoded, 'paths', '/notes', 'post', 'requestBody');
    note.content = { 'application/x-www-form-urlencoded': at(note, 'content', 'text/plain') };
    expect(() => buildTable(urlEncoded)).toThrow(/POST \/notes \(postNote\).*x-www-form-urlencoded is not carried/);

    const range = shapesSpec();
    at(range, 'paths', '/reports/{report_id}', 'get', 'responses', '200').content = { 'image/*': { schema: { type: 'string', format: 'binary' } } };
    expect(() => buildTable(range)).toThrow(/downloadReport.*200 answer.*"image\/\*" is not one concrete type/);

    const deepArray = shapesSpec();
    at(deepArray, 'paths', '/things', 'get', 'parameters', 0).style = 'deepObject';
    expect(() => buildTable(deepArray)).toThrow(/listThings.*query parameter status: deepObject takes an object schema/);

    const formObject = shapesSpec();
    at(formObject, 'paths', '/things', 'get', 'parameters', 2).style = 'form';
    expect(() => buildTable(formObject)).toThrow(/query parameter filter: an object in a query is written as style deepObject/);

    const noParts = shapesSpec();
    at(noParts, 'paths', '/documents', 'post', 'requestBody', 'content', 'multipart/form-data').schema = { type: 'string' };
    expect(() => buildTable(noParts)).toThrow(/uploadDocument.*multipart\/form-data body needs an object schema/);

    const numberField = shapesSpec();
    at(numberField, 'paths', '/documents', 'post', 'requestBody', 'content', 'multipart/form-data', 'schema', 'properties').title = { type: 'integer' };
    expect(() => buildTable(numberField)).toThrow(/uploadDocument.*multipart field title must be a string/);

    const multipartAnswer = shapesSpec();
    at(multipartAnswer, 'paths', '/logs', 'get', 'responses', '200').content = { 'multipart/form-data': { schema: { type: 'object' } } };
    expect(() => buildTable(multipartAnswer)).toThrow(/streamLog.*200 answer: multipart\/form-data is a request body/);
  });

  it('sorts media types into kinds: +json is JSON, text/* is text, any other concrete type is bytes', () => {
    expect(mediaKind('application/problem+json', 'here')).toBe('json');
    expect(mediaKind('text/csv', 'here')).toBe('text');
    expect(mediaKind('application/octet-stream', 'here')).toBe('bytes');
    expect(mediaKind('image/png', 'here')).toBe('bytes');
    expect(mediaKind('multipart/form-data', 'here')).toBe('multipart');
  });
});
