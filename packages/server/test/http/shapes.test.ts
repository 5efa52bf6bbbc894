// The service's pipeline over every body and parameter shape the kit carries, on the fixture spec of
// shapes (packages/contract/test/fixtures/shapes/openapi.yaml) served by the same createApp as the
// product, over real HTTP: each request media type read by its kind (and any other refused with 415
// naming the accepted ones), multipart uploads checked for real and handed over as web Files, text and
// bytes answers sent with the spec's Content-Type (streamed with back-pressure, stopped when the client
// leaves), a 204 without body, non-JSON answers checked as far as their schema allows, query
// parameters in the shapes their style writes, a concrete path before a templated one, and HEAD of a GET.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServedContract } from '../../src/http/served-contract.js';
import { isNotModified } from '../../src/preconditions/index.js';
import { shapesContract, startShapesService, type ShapeHandlers } from './support/shapes.js';
import { capturingLogger, token, type TestService } from './support/service.js';

/** A PDF's first bytes and some that are not text (NUL, 0xff): what a download must carry unchanged. */
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0x00, 0xff, 0x10, 0x80]), Buffer.from('\n%%EOF\n')]);
const csv = 'id,title\r\n1,Q1\r\n';
/** The report card's current ETag. */
const cardTag = '"7-2"';

/** A producer of text that never ends by itself, counting what it was asked for and whether it was destroyed. */
class EndlessLog {
  produced = 0;
  destroyed = false;
  readonly stream: Readable;
  constructor() {
    const line = Buffer.from(`${'log line '.repeat(7)}\n`.repeat(1024));
    this.stream = new Readable({
      read: () => {
        this.produced += line.length;
        this.stream.push(line);
      },
      destroy: (error, done) => {
        this.destroyed = true;
        done(error);
      },
    });
  }
}

type ExportMode = 'json' | 'csv' | 'undocumented' | 'too-long' | 'too-long-stream';

describe('the pipeline over every shape (fixture spec of shapes)', () => {
  let contract: ServedContract;
  let service: TestService;
  let unvalidated: TestService;
  let bearer: string;
  const captured = capturingLogger();

  let exportMode: ExportMode = 'json';
  let log: EndlessLog | undefined;
  let uploaded: { name: string; type: string; size: number; bytes: Buffer; title: string | undefined } | undefined;
  let note: string | undefined;
  let query: unknown;
  let called: string[] = [];

  const handlers: ShapeHandlers = {
    exportReports: async () => {
      called.push('exportReports');
      switch (exportMode) {
        case 'json':
          return { status: 200, mediaType: 'application/json', body: { reports: [{ id: 1, title: 'Q1' }] } };
        case 'csv':
          return { status: 200, mediaType: 'text/csv', body: csv };
        case 'undocumented':
          return { status: 200, mediaType: 'text/html', body: '<p>reports</p>' } as never;
        case 'too-long':
          return { status: 200, mediaType: 'text/csv', body: 'x'.repeat(1_000_001) };
        case 'too-long-stream':
          return { status: 200, mediaType: 'text/csv', body: Readable.from(Array.from({ length: 11 }, () => 'x'.repeat(100_000))) };
      }
    },
    downloadReport: async () => {
      called.push('downloadReport');
      return { status: 200, body: Buffer.from(pdf) };
    },
    getReportCard: async (_request, context) => {
      called.push('getReportCard');
      if (isNotModified(context.ifNoneMatch, cardTag)) return { status: 304, headers: { ETag: cardTag } };
      return { status: 200, headers: { ETag: cardTag }, body: { id: 7, title: 'Q3' } };
    },
    removeReport: async () => ({ status: 204 }),
    streamLog: async () => {
      called.push('streamLog');
      return { status: 200, body: log === undefined ? Readable.from(['started\n', 'stopped\n']) : log.stream };
    },
    uploadDocument: async (request) => {
      called.push('uploadDocument');
      const { file, title } = request.body;
      uploaded = { name: file.name, type: file.type, size: file.size, bytes: Buffer.from(await file.arrayBuffer()), title };
      return { status: 201, body: { id: 1, name: file.name, media_type: file.type, size: file.size } };
    },
    uploadPair: async (request) => {
      const { front, back } = request.body;
      return { status: 201, body: { id: 2, name: `${front.name}+${back.name}`, media_type: front.type, size: front.size + back.size } };
    },
    postNote: async (request) => {
      note = request.body;
      return { status: 201, body: { id: 3, text: request.body } };
    },
    listThings: async (request) => {
      query = request.query;
      return { status: 200, body: { things: [] } };
    },
  };

  beforeAll(async () => {
    contract = await shapesContract();
    service = await startShapesService({ contract, handlers, logger: captured.logger });
    unvalidated = await startShapesService({ contract, handlers, env: { REQUEST_VALIDATION: 'off' } });
    bearer = await token();
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await unvalidated?.close();
  });
  beforeEach(() => {
    exportMode = 'json';
    log = undefined;
    uploaded = undefined;
    note = undefined;
    query = undefined;
    called = [];
  });

  function call(path: string, init: RequestInit = {}, on: TestService = service): Promise<Response> {
    return fetch(`${on.url}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, ...(init.headers as Record<string, string> | undefined) } });
  }

  async function errorOf(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  describe('request bodies by media type', () => {
    it('takes a text/plain body as a string', async () => {
      const response = await call('/notes', {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'Call the client back, ünïcode.',
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ id: 3, text: 'Call the client back, ünïcode.' });
      expect(note).toBe('Call the client back, ünïcode.');
    });

    it('refuses another media type with 415 naming the accepted one', async () => {
      expect(await errorOf(await call('/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"note"' }))).toEqual({
        status: 415,
        body: { error: 'unsupported_media_type', message: 'The request body must be text/plain.' },
      });
      expect(await errorOf(await call('/documents', { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: pdf }))).toEqual({
        status: 415,
        body: { error: 'unsupported_media_type', message: 'The request body must be multipart/form-data.' },
      });
      // A required body without any Content-Type.
      expect((await call('/notes', { method: 'POST' })).status).toBe(415);
      // Text is UTF-8 (the table's charset).
      expect(await errorOf(await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain; charset=iso-8859-1' }, body: 'note' }))).toEqual({
        status: 415,
        body: { error: 'unsupported_media_type', message: 'The request body must be text/plain in UTF-8.' },
      });
      expect(note).toBeUndefined();
    });

    it("holds a text body to its schema's maxLength in characters (the validator), and stops reading at 4 bytes a character (413)", async () => {
      const long = await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'é'.repeat(1001) });
      expect(await errorOf(long)).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: 'The request body must NOT have more than 1000 characters.',
          details: { field: 'body', issue: 'must NOT have more than 1000 characters' },
        },
      });
      // An empty text is a text, which its schema's minLength refuses.
      expect(await errorOf(await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' }))).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: 'The request body must NOT have fewer than 1 characters.',
          details: { field: 'body', issue: 'must NOT have fewer than 1 characters' },
        },
      });
      // 1000 four-byte characters are valid; a byte more cannot be.
      expect((await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '😀'.repeat(1000) })).status).toBe(201);
      expect(await errorOf(await call('/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: `${'😀'.repeat(1000)}x` }))).toEqual({
        status: 413,
        body: { error: 'payload_too_large', message: 'The request body is larger than 4000 bytes.' },
      });
    });
  });

  describe('multipart uploads', () => {
    function form(parts: Array<[string, string | Blob, string?]>): FormData {
      const data = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') data.append(name, value);
        else data.append(name, value, filename);
      }
      return data;
    }
    const upload = (path: string, data: FormData) => call(path, { method: 'POST', body: data });

    it('hands a file to the handler as a web File (name, type, size, bytes) and a field as its text', async () => {
      const response = await upload(
        '/documents',
        form([
          ['file', new Blob([pdf], { type: 'application/pdf' }), 'report.pdf'],
          ['title', 'Q1 report'],
        ]),
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ id: 1, name: 'report.pdf', media_type: 'application/pdf', size: pdf.length });
      expect(uploaded).toEqual({ name: 'report.pdf', type: 'application/pdf', size: pdf.length, bytes: pdf, title: 'Q1 report' });
    });

    it('takes two files in one body', async () => {
      // The PNG signature (the first bytes are checked against the declared type), then a few bytes.
      const png = (side: string) => new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), side], { type: 'image/png' });
      const response = await upload(
        '/documents/pair',
        form([
          ['front', png('front'), 'front.png'],
          ['back', png('back'), 'back.png'],
        ]),
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ id: 2, name: 'front.png+back.png', media_type: 'image/png', size: 8 + 5 + 8 + 4 });
    });

    it("leaves the fields to the validator: a title over its maxLength is its 400, in the service's words", async () => {
      const file = new Blob([pdf], { type: 'application/pdf' });
      expect(
        await errorOf(
          await upload(
            '/documents',
            form([
              ['file', file, 'a.pdf'],
              ['title', 't'.repeat(201)],
            ]),
          ),
        ),
      ).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: "Invalid 'title': must NOT have more than 200 characters.",
          details: { field: 'title', issue: 'must NOT have more than 200 characters' },
        },
      });
    });

    it('refuses a body without its required file with 400', async () => {
      expect(await errorOf(await upload('/documents', form([['title', 'no file']])))).toEqual({
        status: 400,
        body: { error: 'invalid_request', message: "Missing required parameter 'file'.", details: { field: 'file', issue: 'is required' } },
      });
      expect(called).toEqual([]);
    });

    it('refuses a file whose part declares a media type its encoding.contentType does not allow with 415', async () => {
      const text = new Blob(['plain text'], { type: 'text/plain' });
      expect(await errorOf(await upload('/documents', form([['file', text, 'notes.txt']])))).toEqual({
        status: 415,
        body: {
          error: 'unsupported_media_type',
          message: "The file 'file' is text/plain; it must be one of application/pdf, image/png.",
          details: { field: 'file', issue: 'must be one of application/pdf, image/png' },
        },
      });
    });

    it('refuses a string sent in place of a file', async () => {
      expect(await errorOf(await upload('/documents', form([['file', 'not a file at all']])))).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: "Invalid 'file': must be a file (a part with a filename), not a text field.",
          details: { field: 'file', issue: 'must be a file (a part with a filename), not a text field' },
        },
      });
      expect(called).toEqual([]);
    });

    it('refuses a file part the spec does not declare with 400', async () => {
      const extra = new Blob(['x'], { type: 'text/plain' });
      expect(await errorOf(await upload('/documents', form([['extra', extra, 'extra.txt']])))).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: "Invalid 'extra': is not a file this request takes.",
          details: { field: 'extra', issue: 'is not a file this request takes' },
        },
      });
    });

    it('refuses more parts than the spec declares with 413', async () => {
      const file = new Blob([pdf], { type: 'application/pdf' });
      const extraField = await errorOf(
        await upload(
          '/documents',
          form([
            ['file', file, 'a.pdf'],
            ['title', 't'],
            ['comment', 'one field too many'],
          ]),
        ),
      );
      expect(extraField).toEqual({
        status: 413,
        body: { error: 'payload_too_large', message: 'The request body has more parts than the 2 this operation takes.' },
      });
      const secondFile = await upload(
        '/documents',
        form([
          ['file', file, 'a.pdf'],
          ['file', file, 'b.pdf'],
        ]),
      );
      expect(secondFile.status).toBe(413);
      expect(called).toEqual([]);
    });

    it('answers 413 for a file over its maxLength as soon as it passes it, while the client is still sending', async () => {
      const boundary = 'shapes-boundary';
      const response = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const request = httpRequest(`${service.url}/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        // After the answer the service drains what still comes; the client stops here.
        request.on('error', () => undefined);
        request.on('response', (answer: IncomingMessage) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            resolve({ status: answer.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
            request.destroy();
          });
          answer.on('error', reject);
        });
        request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
        // 1 MiB and 64 KiB of a file whose maxLength is 1 MiB, and then nothing until the answer: a
        // service that read the whole upload before answering would never answer (the test times out).
        // A PDF by its first bytes, so that its size is what is refused.
        request.write(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024 * 1024 + 64 * 1024, 0x25)]));
      });
      expect(response).toEqual({
        status: 413,
        body: {
          error: 'payload_too_large',
          message: "The file 'file' is larger than 1 MiB.",
          details: { field: 'file', issue: 'must be at most 1048576 bytes' },
        },
      });
      expect(called).toEqual([]);
    });
  });

  describe('answers by media type', () => {
    it('sends the PDF as bytes with the Content-Type of the spec', async () => {
      const response = await call('/reports/1');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-length')).toBe(String(pdf.length));
      expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);
    });

    it('streams a text answer as text/plain in UTF-8', async () => {
      const response = await call('/logs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe('started\nstopped\n');
    });

    it('sends the media type the handler names where a status has two', async () => {
      exportMode = 'csv';
      const asCsv = await call('/reports/export');
      expect([asCsv.status, asCsv.headers.get('content-type'), await asCsv.text()]).toEqual([200, 'text/csv; charset=utf-8', csv]);
      exportMode = 'json';
      const asJson = await call('/reports/export');
      expect([asJson.status, asJson.headers.get('content-type'), await asJson.json()]).toEqual([
        200,
        'application/json; charset=utf-8',
        { reports: [{ id: 1, title: 'Q1' }] },
      ]);
    });

    it('answers a 204 with no body and no Content-Type', async () => {
      const response = await call('/reports/1', { method: 'DELETE' });
      expect(response.status).toBe(204);
      expect(response.headers.get('content-type')).toBeNull();
      expect(await response.text()).toBe('');
    });

    it('asks a streamed answer for more only as the client reads, and destroys it when the client leaves', async () => {
      const endless = new EndlessLog();
      log = endless;
      const request = httpRequest(`${service.url}/logs`, { headers: { authorization: `Bearer ${bearer}` } });
      request.on('error', () => undefined);
      const answer = await new Promise<IncomingMessage>((resolve) => {
        request.on('response', resolve);
        request.end();
      });
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
      // The client reads one chunk and then nothing: the socket's buffers fill, and so does the pipeline's.
      await new Promise((resolve) => answer.once('data', resolve));
      answer.pause();
      await sleep(500);
      const stalled = endless.produced;
      await sleep(300);
      expect(endless.produced).toBe(stalled);
      // Socket buffers, not the whole (endless) log: a source read without back-pressure runs to gigabytes.
      expect(stalled).toBeLessThan(64 * 1024 * 1024);
      expect(endless.destroyed).toBe(false);
      request.destroy();
      await expect.poll(() => endless.destroyed).toBe(true);
      const produced = endless.produced;
      await sleep(100);
      expect(endless.produced).toBe(produced);
    });
  });

  describe('conditional reads', () => {
    it('answers 304 with the ETag and no body when If-None-Match names the current ETag, weakly or among others, or is *', async () => {
      for (const condition of [cardTag, `W/${cardTag}`, `"1-1", ${cardTag}`, '*']) {
        for (const method of ['GET', 'HEAD']) {
          const response = await call('/reports/7/card', { method, headers: { 'if-none-match': condition } });
          expect([condition, method, response.status]).toEqual([condition, method, 304]);
          expect(response.headers.get('etag')).toBe(cardTag);
          expect(response.headers.get('content-type')).toBeNull();
          expect(await response.text()).toBe('');
        }
      }
    });

    it('answers 200 with the body and its ETag without If-None-Match, or when it names another version', async () => {
      for (const headers of [{}, { 'if-none-match': '"7-1"' }] as Record<string, string>[]) {
        const response = await call('/reports/7/card', { headers });
        expect(response.status).toBe(200);
        expect(response.headers.get('etag')).toBe(cardTag);
        expect(await response.json()).toEqual({ id: 7, title: 'Q3' });
      }
    });

    it('refuses an If-None-Match that is not * or a list of entity tags with 400 naming it, before the handler runs', async () => {
      expect(await errorOf(await call('/reports/7/card', { headers: { 'if-none-match': '7-2' } }))).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: 'Invalid header \'If-None-Match\': must be * or a comma-separated list of entity tags ("…" or W/"…").',
          details: { field: 'If-None-Match', issue: 'must be * or a comma-separated list of entity tags ("…" or W/"…")' },
        },
      });
      expect(called).toEqual([]);
    });
  });

  describe('answers that break their schema', () => {
    async function failureLogged(requestId: string): Promise<string> {
      await expect.poll(() => captured.lines().some((line) => line.requestId === requestId && line.err !== undefined)).toBe(true);
      const line = captured.lines().find((entry) => entry.requestId === requestId && entry.err !== undefined);
      return JSON.stringify(line?.err);
    }

    it("answers a media type the status does not document as the answer check's 500", async () => {
      exportMode = 'undocumented';
      const response = await call('/reports/export');
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: 'internal_error' });
      expect(await failureLogged(response.headers.get('x-request-id') ?? '')).toContain('sent as text/html; the spec documents application/json, text/csv');
    });

    it("answers a text over its schema's maxLength as the answer check's 500", async () => {
      exportMode = 'too-long';
      const response = await call('/reports/export');
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: 'internal_error' });
      expect(await failureLogged(response.headers.get('x-request-id') ?? '')).toContain('must NOT have more than 1000000 characters');
    });

    it('cuts a streamed text once it outgrows its maxLength (its status is sent by then) and logs why', async () => {
      exportMode = 'too-long-stream';
      const response = await call('/reports/export');
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
      expect(await failureLogged(response.headers.get('x-request-id') ?? '')).toContain('must NOT have more than 1000000 characters');
    });
  });

  describe('query parameters by style', () => {
    it('reads an exploded array, a comma-separated one and a deepObject', async () => {
      const response = await call('/things?status=new&status=used&tags=a,b&filter[color]=red&filter[size]=3');
      expect(response.status).toBe(200);
      expect(query).toEqual({ status: ['new', 'used'], tags: ['a', 'b'], filter: { color: 'red', size: 3 } });
      // One value of an exploded array is an array of one; brackets as URLSearchParams writes them.
      await call(`/things?status=broken&${new URLSearchParams({ 'filter[color]': 'blue' }).toString()}`);
      expect(query).toEqual({ status: ['broken'], filter: { color: 'blue' } });
    });

    it("refuses a bad element in the service's own 400 wording", async () => {
      expect(await errorOf(await call('/things?status=new&status=bent'))).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          message: "Invalid query parameter 'status': must be equal to one of the allowed values: new, used, broken.",
          details: { field: 'status', issue: 'must be equal to one of the allowed values: new, used, broken' },
        },
      });
      const badTag = await errorOf(await call('/things?tags=a,B2'));
      expect(badTag).toMatchObject({ status: 400, body: { error: 'invalid_request', details: { field: 'tags' } } });
      const badFilter = await errorOf(await call('/things?filter[size]=0'));
      expect(badFilter).toMatchObject({ status: 400, body: { error: 'invalid_request', details: { field: 'filter', issue: 'must be >= 1' } } });
    });

    it('hands the handler those shapes even when request validation is off (read from the table, not by the validator)', async () => {
      const response = await call('/things?status=new&status=used&tags=a,b&filter[color]=red', {}, unvalidated);
      expect(response.status).toBe(200);
      expect(query).toEqual({ status: ['new', 'used'], tags: ['a', 'b'], filter: { color: 'red' } });
    });
  });

  describe('paths and methods', () => {
    it('matches the concrete /reports/export before the templated /reports/{report_id}', async () => {
      const response = await call('/reports/export');
      expect(response.status).toBe(200);
      expect(called).toEqual(['exportReports']);
    });

    it("answers HEAD of a GET with the GET's status and headers and no body", async () => {
      const response = await call('/reports/1', { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-length')).toBe(String(pdf.length));
      expect(await response.text()).toBe('');
      expect(called).toEqual(['downloadReport']);
    });

    it('checks HEAD of a GET as the GET: a bad query parameter is its 400', async () => {
      const response = await call('/things?status=bent', { method: 'HEAD' });
      expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([400, 'application/json; charset=utf-8', '']);
      expect(query).toBeUndefined();
    });

    it('answers HEAD of a streamed GET without reading the stream', async () => {
      const endless = new EndlessLog();
      log = endless;
      const response = await call('/logs', { method: 'HEAD' });
      expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([200, 'text/plain; charset=utf-8', '']);
      await expect.poll(() => endless.destroyed).toBe(true);
      expect(endless.produced).toBe(0);
    });

    it('names HEAD in the Allow header of a path with a GET', async () => {
      const response = await call('/reports/1', { method: 'PUT' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('DELETE, GET, HEAD');
    });
  });
});
