// The MSW handlers over the fixture spec of shapes (packages/contract/test/fixtures/shapes): every body
// is answered and refused as the operation table says it is carried. Bytes come with their media type
// and are a valid file of it (a PDF that starts `%PDF-`); text with `charset=utf-8`; a 204 with no
// body; JSON or CSV for one status by the Accept header. Refusals as the service's: a multipart
// upload without its required file (400), with a file of a media type its part does not take or whose
// first bytes are not that type's (415) or over its maxLength (413), a body of a media type the operation does not take (415, naming the ones
// it does), array and deepObject query parameters that break their schema (400, naming the parameter).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { samplePng } from '../../../../scripts/lib/sample-files.mjs';
import type { operations } from '../../../contract/test/fixtures/shapes/generated/schema.js';
import { mswHandlers, type MswTables } from '../../src/msw/index.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = 'packages/contract/test/fixtures/shapes';
// The fixture's generated modules, brought up to date first (a no-op when the spec and generator are unchanged).
execFileSync(process.execPath, ['scripts/generate.mjs', '--spec', `${fixture}/openapi.yaml`, '--out', `${fixture}/generated`], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const [{ operationTable }, { generationSchemas, mswOperations }, { requestValidators }] = await Promise.all([
  import('../../../contract/test/fixtures/shapes/generated/operations.js'),
  import('../../../contract/test/fixtures/shapes/generated/client-msw-answers.js'),
  import('../../../contract/test/fixtures/shapes/generated/client-msw-request-validators.js'),
]);

type ShapeId = keyof typeof operationTable;
const tables: MswTables<ShapeId> = { operationTable, mswOperations, generationSchemas, requestValidators };
const shapes = mswHandlers<operations>(tables);

const baseUrl = 'http://shapes.msw.invalid';
const server = setupServer(...shapes.createHandlers({ baseUrl }));
const auth = { Authorization: 'Bearer test-token' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
}

async function errorOf(response: Response): Promise<{ error: string; message: string; details?: { field: string; issue: string } }> {
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as { error: string; message: string; details?: { field: string; issue: string } };
}

function upload(parts: Record<string, string | Blob>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, `${name}.bin`);
  }
  return form;
}

const pdf = (size = 64): Blob => new Blob([`%PDF-1.4\n${'x'.repeat(Math.max(0, size - 9))}`], { type: 'application/pdf' });

describe('answers by kind', () => {
  it('bytes: a small valid PDF with Content-Type application/pdf', async () => {
    const response = await call('/reports/1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder('latin1').decode(bytes);
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    // The cross-reference table points at the objects it names: a PDF reader opens it.
    const offset = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(offset, offset + 4)).toBe('xref');
  });

  it('text: the example, as text/plain; charset=utf-8', async () => {
    const response = await call('/logs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('started\nstopped\n');
  });

  it('a 204 has no body and no Content-Type', async () => {
    const response = await call('/reports/1', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.headers.get('content-type')).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('two media types for one status: JSON by default, CSV when the Accept header asks for it', async () => {
    const json = await call('/reports/export');
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toMatchObject({ reports: expect.any(Array) });
    const csv = await call('/reports/export', { headers: { Accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe('id,title\r\n1,Q1\r\n');
    const preferred = await call('/reports/export', { headers: { Accept: 'application/json;q=0.5, text/*' } });
    expect(preferred.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });

  it('a concrete path beside a templated one goes to its own operation, whichever handler comes first', async () => {
    server.use(shapes.operationHandlers.downloadReport({ baseUrl }));
    const response = await call('/reports/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('an override answers bytes or text of its own', async () => {
    const png = samplePng();
    server.use(
      shapes.operationHandlers.downloadReport({ baseUrl, override: { status: 200, body: png } }),
      shapes.operationHandlers.streamLog({ baseUrl, override: { status: 200, body: 'one line\n' } }),
    );
    const bytes = await call('/reports/1');
    expect(bytes.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(png);
    expect(await (await call('/logs')).text()).toBe('one line\n');
  });

  it('Prefer: a documented error answer is JSON; seeded data keeps each kind (text stays text, bytes a valid file)', async () => {
    const missing = await call('/reports/1', { headers: { Prefer: 'code=404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    const csv = await call('/reports/export', { headers: { Prefer: 'dynamic=true', Accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(typeof (await csv.text())).toBe('string');
    const seeded = await call('/reports/1', { headers: { Prefer: 'dynamic=true' } });
    expect(new TextDecoder().decode(await seeded.arrayBuffer()).startsWith('%PDF-')).toBe(true);
  });

  it('uploads the service would take are answered with the success answer', async () => {
    const one = await call('/documents', { method: 'POST', body: upload({ file: pdf(), title: 'Q1' }) });
    expect(one.status).toBe(201);
    const png = new Blob([samplePng()], { type: 'image/png' });
    const pair = await call('/documents/pair', { method: 'POST', body: upload({ front: png, back: png }) });
    expect(pair.status).toBe(201);
    const note = await call('/notes', { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Call back.' });
    expect(note.status).toBe(201);
    const things = await call('/things?status=new&status=used&tags=a,b&filter[color]=red&filter[size]=3');
    expect(things.status).toBe(200);
  });
});

describe('conditional reads', () => {
  const card = '/reports/7/card';

  it("answers the documented 304, with the ETag and no body, when If-None-Match names the example's ETag", async () => {
    const fresh = await call(card);
    expect(fresh.status).toBe(200);
    const etag = fresh.headers.get('etag');
    expect(etag).toBe('"7-2"');
    expect(await fresh.json()).toEqual({ id: 7, title: 'Q3' });
    for (const condition of [etag ?? '', `W/${etag}`, '*']) {
      for (const method of ['GET', 'HEAD']) {
        const cached = await call(card, { method, headers: { 'If-None-Match': condition } });
        expect([condition, method, cached.status, cached.headers.get('etag'), await cached.text()]).toEqual([condition, method, 304, etag, '']);
      }
    }
    expect((await call(card, { headers: { 'If-None-Match': '"7-1"' } })).status).toBe(200);
  });

  it('answers HEAD of every GET with its status and headers and no body', async () => {
    const head = await call('/reports/1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await call('/reports/0', { method: 'HEAD' })).status).toBe(400);
  });

  it("an override's own ETag is the current one; Prefer picks an answer whatever the condition", async () => {
    server.use(shapes.operationHandler('getReportCard', { override: { status: 200, headers: { ETag: '"7-9"' }, body: { id: 7, title: 'Q4' } } }));
    expect((await call(card, { headers: { 'If-None-Match': '"7-2"' } })).status).toBe(200);
    const cached = await call(card, { headers: { 'If-None-Match': '"7-9"' } });
    expect([cached.status, cached.headers.get('etag')]).toEqual([304, '"7-9"']);
    server.resetHandlers();
    expect((await call(card, { headers: { 'If-None-Match': '"7-2"', Prefer: 'code=200' } })).status).toBe(200);
  });

  it('refuses If-None-Match and If-Match that are not lists of entity tags, as the service does', async () => {
    const noneMatch = await call(card, { headers: { 'If-None-Match': '7-2' } });
    expect(noneMatch.status).toBe(400);
    expect(await errorOf(noneMatch)).toMatchObject({ error: 'invalid_request', details: { field: 'If-None-Match' } });
    const ifMatch = await call('/reports/1', { method: 'DELETE', headers: { 'If-Match': 'v1' } });
    expect(ifMatch.status).toBe(400);
    expect(await errorOf(ifMatch)).toMatchObject({ error: 'invalid_request', details: { field: 'If-Match' } });
    // An operation that takes no If-None-Match ignores it, as the service does (a browser sends it by itself).
    expect((await call('/reports/1', { headers: { 'If-None-Match': 'anything' } })).status).toBe(200);
  });
});

describe('refusals, as the service refuses', () => {
  it('a multipart upload without its required file: 400 naming the part', async () => {
    const response = await call('/documents', { method: 'POST', body: upload({ title: 'no file' }) });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      error: 'invalid_request',
      message: "Missing required parameter 'file'.",
      details: { field: 'file', issue: 'is required' },
    });
  });

  it('a file part of a media type its encoding does not list: 415 unsupported_media_type', async () => {
    const response = await call('/documents', { method: 'POST', body: upload({ file: new Blob(['GIF89a'], { type: 'image/gif' }) }) });
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toEqual({
      error: 'unsupported_media_type',
      message: "The file 'file' is image/gif; it must be one of application/pdf, image/png.",
      details: { field: 'file', issue: 'must be one of application/pdf, image/png' },
    });
  });

  it('a file whose first bytes are not what its declared type starts with: 415, as the service words it', async () => {
    const response = await call('/documents', { method: 'POST', body: upload({ file: new Blob(['just text\n'], { type: 'application/pdf' }) }) });
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toEqual({
      error: 'unsupported_media_type',
      message: "The file 'file' is declared application/pdf, but its bytes are not a PDF; it must be application/pdf or image/png.",
      details: { field: 'file', issue: 'must be application/pdf or image/png' },
    });
  });

  it('a file over its maxLength: 413 payload_too_large', async () => {
    const response = await call('/documents', { method: 'POST', body: upload({ file: pdf(1_048_577) }) });
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toEqual({
      error: 'payload_too_large',
      message: "The file 'file' is larger than 1 MiB.",
      details: { field: 'file', issue: 'must be at most 1048576 bytes' },
    });
  });

  it('a text field where a file belongs: 400; a second file for a part that takes one: 413', async () => {
    const field = await call('/documents', { method: 'POST', body: upload({ file: 'not a file' }) });
    expect(field.status).toBe(400);
    expect((await errorOf(field)).details).toEqual({ field: 'file', issue: 'must be a file (a part with a filename), not a text field' });
    const form = upload({ file: pdf() });
    form.append('file', pdf(), 'second.pdf');
    const two = await call('/documents', { method: 'POST', body: form });
    expect(two.status).toBe(413);
    expect((await errorOf(two)).message).toBe('The request body has more parts than the 2 this operation takes.');
  });

  it('one of two required files missing, and a file part the spec does not declare: 400', async () => {
    const png = new Blob([samplePng()], { type: 'image/png' });
    const missing = await call('/documents/pair', { method: 'POST', body: upload({ front: png }) });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).details).toEqual({ field: 'back', issue: 'is required' });
    // Alone: beside the file it would be one file more than the operation takes (413, as the service counts first).
    const unknown = await call('/documents', { method: 'POST', body: upload({ extra: new Blob(['x'], { type: 'text/plain' }) }) });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).details).toEqual({ field: 'extra', issue: 'is not a file this request takes' });
  });

  it('a body of a media type the operation does not take, or none where one is required: 415 naming the ones it takes', async () => {
    const json = await call('/notes', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '"Call back."' });
    expect(json.status).toBe(415);
    expect(await errorOf(json)).toEqual({ error: 'unsupported_media_type', message: 'The request body must be text/plain.' });
    const none = await call('/documents', { method: 'POST' });
    expect(none.status).toBe(415);
    expect((await errorOf(none)).message).toBe('The request body must be multipart/form-data.');
  });

  it('a text body is checked against its schema', async () => {
    const empty = await call('/notes', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '' });
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toEqual({
      error: 'invalid_request',
      message: 'The request body must NOT have fewer than 1 characters.',
      details: { field: 'body', issue: 'must NOT have fewer than 1 characters' },
    });
  });

  it.each([
    ['an exploded array item outside its enum', '?status=bad', 'status'],
    ['a non-exploded array item against its pattern', '?tags=a,B', 'tags'],
    ['a deepObject property under its minimum', '?filter[size]=0', 'filter'],
    ['a deepObject property it does not have', '?filter[weight]=3', 'filter'],
    ['an unknown parameter', '?colour=red', 'colour'],
  ])('%s: 400 naming the parameter (%s)', async (_case, query, field) => {
    const response = await call(`/things${query}`);
    expect(response.status).toBe(400);
    const body = await errorOf(response);
    expect(body.error).toBe('invalid_request');
    expect(body.details?.field).toBe(field);
  });

  it('no token: 401 before anything else', async () => {
    const response = await fetch(`${baseUrl}/reports/1`);
    expect(response.status).toBe(401);
  });
});
