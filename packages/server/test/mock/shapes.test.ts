// The stateful mock carries every body the service carries: over the fixture spec of shapes
// (packages/contract/test/fixtures/shapes), with small handlers of its own, a PDF download answers
// bytes as application/pdf, text answers text, a 204 no body, a multipart upload and a text body reach
// their handlers, and the service's refusals (a missing file, a wrong file type, a wrong media type)
// come back as from the service. The mock's own steps (the reset route, the request gate) read no body:
// an upload held by a reset in progress arrives whole once the reset is done.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf, samplePng } from '../../../../scripts/lib/sample-files.mjs';
import type { ServedHandlers } from '../../src/http/router.js';
import type { ServedContract } from '../../src/http/served-contract.js';
import { loadConfig } from '../../src/config.js';
import { mintDevToken } from '../../src/dev/token.js';
import { startStatefulMock, type RunningStatefulMock } from '../../src/mock/stateful-mock.js';
import { pgliteTemplate } from '../support/databases.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = 'packages/contract/test/fixtures/shapes';
// The fixture's generated files, brought up to date first (a no-op when the spec and generator are unchanged).
execFileSync(process.execPath, ['scripts/generate.mjs', '--spec', `${fixture}/openapi.yaml`, '--out', `${fixture}/generated`], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const [{ operationTable }, { responseValidators }] = await Promise.all([
  import('../../../contract/test/fixtures/shapes/generated/operations.js'),
  import('../../../contract/test/fixtures/shapes/generated/service-response-validators.js'),
]);

const contract: ServedContract = {
  operations: operationTable,
  validatorSpecPath: join(root, fixture, 'generated/openapi.validator.json'),
  responseValidators,
};

interface Upload {
  body: { file: File; title?: string };
}

/** Handlers that answer from what they were sent, so a test sees what reached them. */
const handlers: ServedHandlers = {
  exportReports: async () => ({ status: 200, body: { reports: [{ id: 1, title: 'Q1' }] } }),
  downloadReport: async () => ({ status: 200, body: samplePdf() }),
  removeReport: async () => ({ status: 204 }),
  streamLog: async () => ({ status: 200, body: 'started\nstopped\n' }),
  uploadDocument: async (request: Upload) => ({
    status: 201,
    body: { id: 1, name: request.body.file.name, media_type: request.body.file.type, size: request.body.file.size },
  }),
  uploadPair: async (request: { body: { front: File; back: File } }) => ({
    status: 201,
    body: { id: 2, name: request.body.front.name, media_type: request.body.front.type, size: request.body.front.size + request.body.back.size },
  }),
  postNote: async (request: { body: string }) => ({ status: 201, body: { id: 3, text: request.body } }),
  listThings: async (request: { query: { status?: string[] } }) => ({ status: 200, body: { things: request.query.status ?? [] } }),
};

let workDir: string;
let mock: RunningStatefulMock;
let token: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'stateful-mock-shapes-'));
  const keyFile = join(workDir, 'dev-key.json');
  token = await mintDevToken({ keyFile });
  mock = await startStatefulMock({
    config: loadConfig({ DEV_KEY_FILE: keyFile, PORT: '0', LOG_LEVEL: 'silent' }),
    logger: pino({ level: 'silent' }),
    fixture: { invoices: 10, deliveries: 1 },
    pgliteDataDirDump: await pgliteTemplate(),
    warmUp: false,
    api: { contract, handlers },
  });
}, 120_000);

afterAll(async () => {
  await mock?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(path, mock.url), { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });
}

function upload(name: string, blob: Blob): FormData {
  const form = new FormData();
  form.append(name, blob, `${name}.bin`);
  return form;
}

describe('answers', () => {
  it('bytes as application/pdf, text as text/plain; charset=utf-8, a 204 without a body', async () => {
    const pdf = await call('/reports/1');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(samplePdf());
    const log = await call('/logs');
    expect(log.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await log.text()).toBe('started\nstopped\n');
    const removed = await call('/reports/1', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
  });
});

describe('requests', () => {
  it('a multipart upload, a text body and an exploded array query reach their handlers', async () => {
    const png = samplePng();
    const stored = await call('/documents', { method: 'POST', body: upload('file', new Blob([png], { type: 'image/png' })) });
    expect(stored.status).toBe(201);
    expect(await stored.json()).toEqual({ id: 1, name: 'file.bin', media_type: 'image/png', size: png.length });
    const note = await call('/notes', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'Call back.' });
    expect(await note.json()).toEqual({ id: 3, text: 'Call back.' });
    const things = await call('/things?status=new&status=used');
    expect(await things.json()).toEqual({ things: ['new', 'used'] });
  });

  it('the service’s refusals: a missing file 400, a file type its part does not take 415, a body of another media type 415', async () => {
    const missing = await call('/documents', { method: 'POST', body: new FormData() });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request', details: { field: 'file', issue: 'is required' } });
    const gif = await call('/documents', { method: 'POST', body: upload('file', new Blob(['GIF89a'], { type: 'image/gif' })) });
    expect(gif.status).toBe(415);
    expect(await gif.json()).toMatchObject({ error: 'unsupported_media_type', details: { field: 'file' } });
    const json = await call('/notes', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '"x"' });
    expect(json.status).toBe(415);
  });

  it('an upload sent while a reset runs is held by the gate and arrives whole after it', async () => {
    const png = samplePng();
    const [reset, stored] = await Promise.all([
      fetch(new URL('/__mock/reset', mock.url), { method: 'POST' }),
      call('/documents', { method: 'POST', body: upload('file', new Blob([png], { type: 'image/png' })) }),
    ]);
    expect(reset.status).toBe(200);
    expect(stored.status).toBe(201);
    expect(await stored.json()).toMatchObject({ size: png.length });
  });
});
