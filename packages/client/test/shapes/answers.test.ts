// Reading answers as the spec says, with no `parseAs` anywhere: the fixture spec's generated client over
// an injected fetch answering real `Response`s. A PDF is a Blob of its type, a text a string, a 204
// nothing, a status with two media types is read by the answer's Content-Type (or the one asked for
// with `accept`), and `{ stream: true }` hands over the body unread.
import { beforeAll, describe, expect, it } from 'vitest';
import { UnexpectedResponseError, RequestTimeoutError } from '../../src/index.js';
import { answering, baseUrl, errorBody, json, loadShapes, shapesClient, type Shapes } from './fixture.js';

let shapes: Shapes;
// A fresh checkout generates the fixture's client first: seconds, not the hook's default ten.
beforeAll(async () => {
  shapes = await loadShapes();
}, 120_000);

const pdfBytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a]); // %PDF-1.7
const pdf = (headers: Record<string, string> = { 'Content-Type': 'application/pdf' }) => new Response(pdfBytes, { status: 200, headers });
const noWait = { sleep: async () => {} };

describe('binary answers', () => {
  it('reads a PDF into a Blob with its type, from the templated path', async () => {
    const fake = answering(pdf());
    const api = shapesClient(shapes, { baseUrl, token: 't', fetch: fake.fetch });
    const result = await api.downloadReport(7);
    expect(fake.requests[0]?.url).toBe(`${baseUrl}/reports/7`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toBeInstanceOf(Blob);
    expect(result.data.type).toBe('application/pdf');
    expect(new Uint8Array(await result.data.arrayBuffer())).toEqual(pdfBytes);
  });

  it('gives a Blob the spec’s media type when the answer names none', async () => {
    const api = shapesClient(shapes, { baseUrl, fetch: answering(pdf({})).fetch });
    const result = await api.downloadReport(7);
    expect(result.ok && result.data.type).toBe('application/pdf');
  });

  it('reads an error answer of a binary operation as its JSON Error body', async () => {
    const api = shapesClient(shapes, {
      baseUrl,
      fetch: answering(new Response(errorBody('not_found'), { status: 404, headers: { 'Content-Type': 'application/json' } })).fetch,
    });
    expect(await api.downloadReport(9)).toMatchObject({ ok: false, status: 404, error: { error: 'not_found' } });
  });

  it('retries a download on 503 and reads the answer that follows', async () => {
    const fake = answering(new Response(errorBody('service_unavailable'), { status: 503, headers: { 'Retry-After': '0' } }), pdf());
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch, retry: noWait });
    const result = await api.downloadReport(7);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(result.ok && result.data.size).toBe(pdfBytes.length);
  });
});

describe('a conditional read', () => {
  const tag = '"7-2"';

  it('sends If-None-Match as given and reads a 304 as a success with no data and the ETag', async () => {
    const fake = answering(new Response(null, { status: 304, headers: { ETag: tag } }));
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    const result = await api.getReportCard(7, { headers: { 'If-None-Match': tag } });
    expect(fake.requests[0]?.headers.get('if-none-match')).toBe(tag);
    expect(result).toMatchObject({ ok: true, status: 304, data: undefined, etag: tag });
  });

  it('reads a 200 as the JSON body with its ETag', async () => {
    const fake = answering(new Response(JSON.stringify({ id: 7, title: 'Q3' }), { headers: { 'Content-Type': 'application/json', ETag: tag } }));
    const result = await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).getReportCard(7);
    expect(result).toMatchObject({ ok: true, status: 200, data: { id: 7, title: 'Q3' }, etag: tag });
  });
});

describe('text answers', () => {
  it('reads a text/plain answer into a string', async () => {
    const api = shapesClient(shapes, {
      baseUrl,
      fetch: answering(new Response('started\nstopped\n', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })).fetch,
    });
    const result = await api.streamLog();
    expect(result).toMatchObject({ ok: true, data: 'started\nstopped\n' });
  });

  it('decodes UTF-8', async () => {
    const api = shapesClient(shapes, {
      baseUrl,
      fetch: answering(new Response(new TextEncoder().encode('grüße ✓'), { headers: { 'Content-Type': 'text/plain' } })).fetch,
    });
    expect(await api.streamLog()).toMatchObject({ data: 'grüße ✓' });
  });
});

describe('{ stream: true }', () => {
  it('hands over the body unread as a ReadableStream', async () => {
    const api = shapesClient(shapes, { baseUrl, fetch: answering(new Response('line 1\nline 2\n', { headers: { 'Content-Type': 'text/plain' } })).fetch });
    const result = await api.streamLog({ stream: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toBeInstanceOf(ReadableStream);
    expect(await new Response(result.data).text()).toBe('line 1\nline 2\n');
  });

  it('times out only until the headers: a body slower than the timeout is still read', async () => {
    let push: (chunk: string) => void = () => {};
    let close: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => controller.enqueue(new TextEncoder().encode(chunk));
        close = () => controller.close();
      },
    });
    const api = shapesClient(shapes, { baseUrl, timeout: 20, fetch: answering(new Response(body, { headers: { 'Content-Type': 'application/pdf' } })).fetch });
    const result = await api.downloadReport(1, { stream: true });
    if (!result.ok) throw new Error('expected a success');
    const reading = new Response(result.data).text();
    await new Promise((resolve) => setTimeout(resolve, 60));
    push('%PDF');
    close();
    expect(await reading).toBe('%PDF');
  });

  it('stops the body when the call’s signal aborts after the call returned', async () => {
    const fake = answering(
      (request) =>
        new Response(
          new ReadableStream<Uint8Array>({
            // Like fetch: the body errors once the request's signal aborts.
            start: (controller) => request.signal.addEventListener('abort', () => controller.error(request.signal.reason)),
          }),
          { headers: { 'Content-Type': 'application/pdf' } },
        ),
    );
    const controller = new AbortController();
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    const result = await api.downloadReport(1, { stream: true, signal: controller.signal });
    if (!result.ok) throw new Error('expected a success');
    const reading = new Response(result.data).arrayBuffer();
    controller.abort(new Error('left the page'));
    await expect(reading).rejects.toThrow('left the page');
  });

  it('still times out a whole read (no stream) that is too slow, like a JSON one', async () => {
    const body = new ReadableStream<Uint8Array>({ start: () => undefined });
    const api = shapesClient(shapes, {
      baseUrl,
      timeout: 20,
      retry: false,
      fetch: answering((request) => {
        request.signal.addEventListener('abort', () => undefined);
        return new Response(body, { headers: { 'Content-Type': 'application/pdf' } });
      }).fetch,
    });
    await expect(api.downloadReport(1)).rejects.toBeInstanceOf(RequestTimeoutError);
  });
});

describe('no content', () => {
  it('answers a 204 with no data', async () => {
    const fake = answering(new Response(null, { status: 204 }));
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    const result = await api.removeReport(3);
    expect(fake.requests[0]?.method).toBe('DELETE');
    expect(result).toMatchObject({ ok: true, status: 204, data: undefined });
  });
});

describe('two media types for one status', () => {
  const reports = { reports: [{ id: 1, title: 'Q1' }] };
  const csv = 'id,title\r\n1,Q1\r\n';

  it('calls the concrete path, not the templated one beside it', async () => {
    const fake = answering(json(reports));
    await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).exportReports();
    expect(new URL(fake.requests[0]?.url ?? '').pathname).toBe('/reports/export');
  });

  it('reads the answer by its Content-Type: JSON, or CSV as a string', async () => {
    const fake = answering(json(reports), new Response(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }));
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    expect(await api.exportReports()).toMatchObject({ ok: true, data: reports });
    expect(await api.exportReports()).toMatchObject({ ok: true, data: csv });
    // Without `accept` the service chooses: no Accept header is sent.
    expect(fake.requests[0]?.headers.has('accept')).toBe(false);
  });

  it('asks for one with `accept`, and refuses an answer in the other', async () => {
    const fake = answering(new Response(csv, { headers: { 'Content-Type': 'text/csv' } }), json(reports));
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    expect(await api.exportReports({ accept: 'text/csv' })).toMatchObject({ ok: true, data: csv });
    expect(fake.requests[0]?.headers.get('accept')).toBe('text/csv');
    await expect(api.exportReports({ accept: 'text/csv' })).rejects.toThrow(/asked for text\/csv, answered application\/json/);
  });

  it('refuses a Content-Type the status does not list', async () => {
    const api = shapesClient(shapes, { baseUrl, fetch: answering(new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } })).fetch });
    const failure = await api.exportReports().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnexpectedResponseError);
    expect((failure as Error).message).toMatch(/Content-Type text\/html, not one of application\/json, text\/csv/);
  });

  it('still refuses JSON that does not parse', async () => {
    const api = shapesClient(shapes, { baseUrl, fetch: answering(new Response('{oops', { headers: { 'Content-Type': 'application/json' } })).fetch });
    await expect(api.exportReports()).rejects.toThrow(/body is not JSON/);
  });
});
