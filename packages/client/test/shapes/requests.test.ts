// Writing requests as the spec says: a multipart body built from a typed object (files as Blob/File,
// the boundary set by fetch), a text body as text/plain, and each query parameter by its own style and
// explode. The fake fetch parses what arrives as a server would (`request.formData()`, `text()`, the URL).
import { beforeAll, describe, expect, it } from 'vitest';
import type { CallPlan, Invoke } from '../../src/transport.js';
import type { ContractResult } from '../../src/result.js';
import type { ClientContract, ContractOperationId } from '../../src/types.js';
import { answering, baseUrl, errorBody, json, loadShapes, shapesClient, type Shapes } from './fixture.js';

let shapes: Shapes;
// A fresh checkout generates the fixture's client first: seconds, not the hook's default ten.
beforeAll(async () => {
  shapes = await loadShapes();
}, 120_000);

const stored = { id: 1, name: 'a.pdf', media_type: 'application/pdf', size: 4 };
const pdf = () => new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });

describe('multipart bodies', () => {
  it('sends a file and a field as multipart/form-data, the boundary set by fetch', async () => {
    const fake = answering(json(stored, 201));
    const api = shapesClient(shapes, { baseUrl, token: 't', fetch: fake.fetch });
    const result = await api.uploadDocument({ file: pdf(), title: 'x' });
    expect(result).toMatchObject({ ok: true, status: 201, data: stored });
    const request = fake.requests[0];
    if (request === undefined) throw new Error('no request');
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=\S+$/);
    const form = await request.formData();
    const file = form.get('file');
    expect(file).toBeInstanceOf(File);
    expect(file instanceof File && [file.name, file.type, await file.text()]).toEqual(['a.pdf', 'application/pdf', '%PDF']);
    expect(form.get('title')).toBe('x');
    expect([...form.keys()]).toEqual(['file', 'title']);
  });

  it('leaves out an optional field that is not given', async () => {
    const fake = answering(json(stored, 201));
    await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).uploadDocument({ file: pdf() });
    expect([...(await fake.requests[0]!.formData()).keys()]).toEqual(['file']);
  });

  it('sends two files, a Blob without a type as the one media type its part declares', async () => {
    const fake = answering(json(stored, 201));
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).uploadPair({
      front: new File([png], 'front.png', { type: 'image/png' }),
      back: new Blob([png]),
    });
    const form = await fake.requests[0]!.formData();
    const front = form.get('front');
    const back = form.get('back');
    expect(front instanceof File && [front.name, front.type]).toEqual(['front.png', 'image/png']);
    // A Blob goes as a file part too (FormData names it `blob`), typed as `encoding.back.contentType` says.
    expect(back instanceof File && [back.name, back.type, back.size]).toEqual(['blob', 'image/png', 4]);
  });

  it('refuses a string for a file part (a JavaScript caller; the types refuse it already)', async () => {
    const fake = answering();
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    const upload = api.uploadDocument as (body: unknown) => Promise<unknown>;
    await expect(upload({ file: 'not a file' })).rejects.toThrow(/the part "file" is a file: give a Blob or a File/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('text bodies', () => {
  it('sends a string as text/plain; charset=utf-8, not as JSON', async () => {
    const fake = answering(json({ id: 1, text: 'Call back ✓' }, 201));
    const result = await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).postNote('Call back ✓');
    expect(result.ok).toBe(true);
    expect(fake.requests[0]?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await fake.requests[0]?.text()).toBe('Call back ✓');
  });
});

describe('query parameters, each by its own style', () => {
  const things = () => json({ things: [] });

  it('explodes status, joins tags with commas and writes filter as a deepObject', async () => {
    const fake = answering(things());
    await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).listThings({ status: ['new', 'used'], tags: ['a', 'b'], filter: { color: 'red', size: 3 } });
    const url = new URL(fake.requests[0]?.url ?? '');
    // OpenAPI's style table (3.0.4/3.1.1) percent-encodes deepObject's brackets; decoded, it is filter[color]=red.
    expect(url.search).toBe('?status=new&status=used&tags=a,b&filter%5Bcolor%5D=red&filter%5Bsize%5D=3');
    expect(url.searchParams.getAll('status')).toEqual(['new', 'used']);
    expect(url.searchParams.get('tags')).toBe('a,b');
    expect(url.searchParams.get('filter[color]')).toBe('red');
    expect(url.searchParams.get('filter[size]')).toBe('3');
  });

  it('percent-encodes values as RFC 6570 does, so a comma or & in a value is no delimiter', async () => {
    const fake = answering(things());
    await shapesClient(shapes, { baseUrl, fetch: fake.fetch }).listThings({ tags: ['a,b', "it's c&d"], filter: { color: 'red/blue (dark)' } });
    const url = new URL(fake.requests[0]?.url ?? '');
    expect(url.search).toBe('?tags=a%2Cb,it%27s%20c%26d&filter%5Bcolor%5D=red%2Fblue%20%28dark%29');
    expect(url.searchParams.get('filter[color]')).toBe('red/blue (dark)');
  });

  it('sends no query for absent, empty and undefined values', async () => {
    const fake = answering(things(), things());
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch });
    await api.listThings();
    await api.listThings({ status: [], filter: {} });
    expect(fake.requests.map((request) => new URL(request.url).search)).toEqual(['', '']);
  });
});

describe('a multipart write that is retried', () => {
  /**
   * The fixture's upload declares no Idempotency-Key (so its generated function takes no key and is
   * never repeated): the generated function is run here with its plan plus the key, as the generator
   * makes it where the spec declares one (test/generate-client.unit.test.ts).
   */
  function keyedUploads(fetch: (request: Request) => Promise<Response>) {
    let keys = 0;
    return shapesClient(
      { ...shapes, operations: { ...shapes.operations, operationFunctions: (raw, call) => shapes.operations.operationFunctions(raw, keyed(call)) } },
      { baseUrl, fetch, retry: { sleep: async () => {} }, idempotencyKey: () => `key-${++keys}` },
    );
  }

  function keyed(call: Invoke): Invoke {
    return function keyedCall<C extends ClientContract, K extends ContractOperationId<C>, Read = object>(
      operationId: K,
      options: Parameters<Invoke>[1],
      send: Parameters<Invoke>[2],
      plan?: CallPlan,
      body?: unknown,
    ): Promise<ContractResult<C, K, Read>> {
      return call<C, K, Read>(operationId, options, send, { ...plan, idempotencyKey: 'Idempotency-Key' }, body);
    };
  }

  it('resends the same parts with the same Idempotency-Key after a 503', async () => {
    const fake = answering(
      new Response(errorBody('service_unavailable'), { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '0' } }),
      json(stored, 201),
    );
    const result = await keyedUploads(fake.fetch).uploadDocument({ file: pdf(), title: 'x' });
    expect(result).toMatchObject({ ok: true, attempts: 2, idempotencyKey: 'key-1' });
    expect(fake.requests.map((request) => request.headers.get('idempotency-key'))).toEqual(['key-1', 'key-1']);
    // The FormData made once is a new request body for each attempt: both carry the whole file.
    const forms = await Promise.all(fake.requests.map((request) => request.formData()));
    for (const form of forms) {
      const file = form.get('file');
      expect(file instanceof File && [file.name, await file.text()]).toEqual(['a.pdf', '%PDF']);
      expect(form.get('title')).toBe('x');
    }
  });

  it('is not repeated without a key: the spec’s own upload declares none', async () => {
    const fake = answering(
      new Response(errorBody('service_unavailable'), { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '0' } }),
    );
    const api = shapesClient(shapes, { baseUrl, fetch: fake.fetch, retry: { sleep: async () => {} } });
    expect(await api.uploadDocument({ file: pdf() })).toMatchObject({ ok: false, status: 503, attempts: 1, idempotencyKey: undefined });
  });
});
