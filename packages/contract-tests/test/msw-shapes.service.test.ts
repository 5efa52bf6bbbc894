// The client's MSW handlers refuse what the service refuses over every shape of body and parameter:
// the fixture spec of shapes (packages/contract/test/fixtures/shapes) is served by the service's own
// pipeline (the stateful mock's app over the fixture's contract, with stub handlers) and by
// `mswHandlers(...)` over the fixture's generated tables, and the same requests (multipart uploads
// with a file missing, of a wrong type, too large or too many; text bodies of another media type,
// charset or length; array and deepObject query parameters; If-Match and If-None-Match, malformed or
// naming the current ETag) get the same answer: status, `error`, `message`, `details`; and for what
// both take, the same status, Content-Type and ETag.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mswHandlers, type MswTables } from '@invoice-api/client/msw';
import { createLogger, loadConfig } from '@invoice-api/server';
import { mintDevToken } from '@invoice-api/server/dev-token';
import type { operations } from '../../contract/test/fixtures/shapes/generated/schema.js';
// The stateful mock's entry and the served-contract types are not on @invoice-api/server's surface.
import type { ServedHandlers } from '../../server/src/http/router.js';
import { startStatefulMock, type RunningStatefulMock } from '../../server/src/mock/stateful-mock.js';
import { isNotModified } from '../../server/src/preconditions/index.js';
import { samplePdf, samplePng } from '../../../scripts/lib/sample-files.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = 'packages/contract/test/fixtures/shapes';
execFileSync(process.execPath, ['scripts/generate.mjs', '--spec', `${fixture}/openapi.yaml`, '--out', `${fixture}/generated`], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const [{ operationTable }, { responseValidators }, { generationSchemas, mswOperations }, { requestValidators }] = await Promise.all([
  import('../../contract/test/fixtures/shapes/generated/operations.js'),
  import('../../contract/test/fixtures/shapes/generated/service-response-validators.js'),
  import('../../contract/test/fixtures/shapes/generated/client-msw-answers.js'),
  import('../../contract/test/fixtures/shapes/generated/client-msw-request-validators.js'),
]);

const mockOrigin = 'http://shapes.msw.invalid';
const tables: MswTables<keyof typeof operationTable> = { operationTable, mswOperations, generationSchemas, requestValidators };
const msw = setupServer(...mswHandlers<operations>(tables).createHandlers({ baseUrl: mockOrigin }));

const cardTag = '"7-2"';

/** Stub handlers: what the service answers once a request passed every check. */
const handlers: ServedHandlers = {
  exportReports: async () => ({ status: 200, body: { reports: [{ id: 1, title: 'Q1' }] } }),
  downloadReport: async () => ({ status: 200, body: samplePdf() }),
  // The fixture's example ETag is the card's current one, as the MSW handlers take their example's.
  getReportCard: async (_request, context) =>
    isNotModified(context.ifNoneMatch, cardTag)
      ? { status: 304, headers: { ETag: cardTag } }
      : { status: 200, headers: { ETag: cardTag }, body: { id: 7, title: 'Q3' } },
  removeReport: async () => ({ status: 204 }),
  streamLog: async () => ({ status: 200, body: 'started\nstopped\n' }),
  uploadDocument: async () => ({ status: 201, body: { id: 1, name: 'a', media_type: 'application/pdf', size: 1 } }),
  uploadPair: async () => ({ status: 201, body: { id: 2, name: 'b', media_type: 'image/png', size: 2 } }),
  postNote: async () => ({ status: 201, body: { id: 3, text: 'c' } }),
  listThings: async () => ({ status: 200, body: { things: [] } }),
};

let workDir: string;
let service: RunningStatefulMock;
let token: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'msw-shapes-'));
  const keyFile = join(workDir, 'dev-key.json');
  token = await mintDevToken({ keyFile, clientId: 'msw-shapes' });
  const config = loadConfig({ DEV_KEY_FILE: keyFile, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000' });
  service = await startStatefulMock({
    config,
    logger: createLogger(config.logLevel, config.logFormat),
    fixture: { invoices: 10, deliveries: 1 },
    warmUp: false,
    api: {
      contract: { operations: operationTable, validatorSpecPath: join(root, fixture, 'generated/openapi.validator.json'), responseValidators },
      handlers,
    },
  });
  // Requests to the service are not the handlers': they go out to it unchanged.
  msw.listen({ onUnhandledRequest: 'bypass' });
}, 120_000);

afterAll(async () => {
  msw.close();
  await service?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A fresh body per request: a FormData or Blob is read once. */
  body?: () => NonNullable<RequestInit['body']>;
}

interface Compared {
  status: number;
  contentType: string | null;
  etag: string | null;
  error?: unknown;
  message?: unknown;
  details?: unknown;
}

async function answer(origin: string, sent: Sent): Promise<Compared> {
  const response = await fetch(`${origin}${sent.path}`, {
    method: sent.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, ...sent.headers },
    ...(sent.body === undefined ? {} : { body: sent.body() }),
  });
  // JSON has no charset (RFC 8259): express says `; charset=utf-8`, MSW nothing. A text answer's charset is compared.
  const contentType = response.headers.get('content-type')?.replace(/^application\/json; charset=utf-8$/, 'application/json') ?? null;
  const compared: Compared = { status: response.status, contentType, etag: response.headers.get('etag') };
  if (response.status >= 400) {
    const body = (await response.json()) as Record<string, unknown>;
    Object.assign(compared, { error: body.error, message: body.message, details: body.details });
  } else await response.arrayBuffer();
  return compared;
}

function form(parts: Array<[string, string | Blob]>): () => FormData {
  return () => {
    const made = new FormData();
    for (const [name, value] of parts) {
      if (typeof value === 'string') made.append(name, value);
      else made.append(name, value, `${name}.bin`);
    }
    return made;
  };
}

const pdf = new Blob([samplePdf()], { type: 'application/pdf' });
const png = new Blob([samplePng()], { type: 'image/png' });
const gif = new Blob(['GIF89a'], { type: 'image/gif' });
// A PDF by its first bytes, so that its size is what is refused.
const large = new Blob([samplePdf(), new Uint8Array(1_048_577)], { type: 'application/pdf' });
const textAsPdf = new Blob(['just some text, renamed .pdf\n'], { type: 'application/pdf' });
const gifAsPng = new Blob(['GIF89a', new Uint8Array(16)], { type: 'image/png' });
const text = (body: string, contentType = 'text/plain'): Sent => ({
  method: 'POST',
  path: '/notes',
  headers: { 'Content-Type': contentType },
  body: () => body,
});

const cases: Array<{ name: string; sent: Sent }> = [
  { name: 'a PDF download', sent: { path: '/reports/1' } },
  { name: 'a text answer', sent: { path: '/logs' } },
  { name: 'a 204', sent: { method: 'DELETE', path: '/reports/1' } },
  { name: 'a read with an ETag', sent: { path: '/reports/7/card' } },
  { name: 'a conditional read of the current version', sent: { path: '/reports/7/card', headers: { 'If-None-Match': cardTag } } },
  { name: 'a conditional HEAD of the current version', sent: { method: 'HEAD', path: '/reports/7/card', headers: { 'If-None-Match': cardTag } } },
  { name: 'a conditional read naming it weakly, among others', sent: { path: '/reports/7/card', headers: { 'If-None-Match': `"1-1", W/${cardTag}` } } },
  { name: 'a conditional read of any version', sent: { path: '/reports/7/card', headers: { 'If-None-Match': '*' } } },
  { name: 'a conditional read of another version', sent: { path: '/reports/7/card', headers: { 'If-None-Match': '"7-1"' } } },
  { name: 'an If-None-Match that is not a list of entity tags', sent: { path: '/reports/7/card', headers: { 'If-None-Match': '7-2' } } },
  { name: 'an If-None-Match where the operation takes none', sent: { path: '/reports/1', headers: { 'If-None-Match': 'anything' } } },
  { name: 'an If-Match that is not a list of entity tags', sent: { method: 'DELETE', path: '/reports/1', headers: { 'If-Match': 'v1' } } },
  { name: 'an If-Match that is one', sent: { method: 'DELETE', path: '/reports/1', headers: { 'If-Match': '"1-1"' } } },
  { name: 'a concrete path beside a templated one', sent: { path: '/reports/export' } },
  { name: 'a path id that is not one', sent: { path: '/reports/0' } },
  { name: 'no token', sent: { path: '/reports/1', headers: { Authorization: '' } } },
  {
    name: 'an upload with its file and a field',
    sent: {
      method: 'POST',
      path: '/documents',
      body: form([
        ['file', pdf],
        ['title', 'Q1'],
      ]),
    },
  },
  { name: 'an upload without its required file', sent: { method: 'POST', path: '/documents', body: form([['title', 'Q1']]) } },
  { name: 'an empty upload', sent: { method: 'POST', path: '/documents', body: form([]) } },
  { name: 'a file of a media type its part does not take', sent: { method: 'POST', path: '/documents', body: form([['file', gif]]) } },
  { name: 'a file over its maxLength', sent: { method: 'POST', path: '/documents', body: form([['file', large]]) } },
  { name: 'a text declared as a PDF', sent: { method: 'POST', path: '/documents', body: form([['file', textAsPdf]]) } },
  { name: 'a GIF declared as a PNG', sent: { method: 'POST', path: '/documents', body: form([['file', gifAsPng]]) } },
  {
    name: 'a file shorter than its signature',
    sent: { method: 'POST', path: '/documents', body: form([['file', new Blob(['%PD'], { type: 'application/pdf' })]]) },
  },
  { name: 'a text field where the file belongs', sent: { method: 'POST', path: '/documents', body: form([['file', 'not a file']]) } },
  {
    name: 'a file where a text field belongs',
    sent: {
      method: 'POST',
      path: '/documents',
      body: form([
        ['file', pdf],
        ['title', png],
      ]),
    },
  },
  {
    name: 'a second file for a part that takes one',
    sent: {
      method: 'POST',
      path: '/documents',
      body: form([
        ['file', pdf],
        ['file', pdf],
      ]),
    },
  },
  {
    name: 'a file part the spec does not declare',
    sent: {
      method: 'POST',
      path: '/documents',
      body: form([
        ['file', pdf],
        ['extra', png],
      ]),
    },
  },
  {
    name: 'a field the spec does not declare',
    sent: {
      method: 'POST',
      path: '/documents',
      body: form([
        ['file', pdf],
        ['extra', 'x'],
      ]),
    },
  },
  {
    name: 'a field over its maxLength',
    sent: {
      method: 'POST',
      path: '/documents',
      body: form([
        ['file', pdf],
        ['title', 'x'.repeat(201)],
      ]),
    },
  },
  {
    name: 'two files',
    sent: {
      method: 'POST',
      path: '/documents/pair',
      body: form([
        ['front', png],
        ['back', png],
      ]),
    },
  },
  { name: 'one of two required files', sent: { method: 'POST', path: '/documents/pair', body: form([['front', png]]) } },
  { name: 'an upload as JSON', sent: { method: 'POST', path: '/documents', headers: { 'Content-Type': 'application/json' }, body: () => '{}' } },
  { name: 'an upload without a Content-Type', sent: { method: 'POST', path: '/documents' } },
  { name: 'a text body', sent: text('Call back.') },
  { name: 'a text body in UTF-8, said so', sent: text('Call back.', 'text/plain; charset=utf-8') },
  { name: 'a text body in another charset', sent: text('Call back.', 'text/plain; charset=latin1') },
  { name: 'a text body as JSON', sent: text('"Call back."', 'application/json') },
  { name: 'an empty text body', sent: text('') },
  { name: 'a text body over its maxLength', sent: text('x'.repeat(1001)) },
  { name: 'array and deepObject parameters as written', sent: { path: '/things?status=new&status=used&tags=a,b&filter[color]=red&filter[size]=3' } },
  { name: 'an exploded array item outside its enum', sent: { path: '/things?status=bad' } },
  { name: 'a non-exploded array item against its pattern', sent: { path: '/things?tags=a,B' } },
  { name: 'too many array items', sent: { path: '/things?status=new&status=new&status=new&status=new&status=new&status=new' } },
  { name: 'a deepObject property under its minimum', sent: { path: '/things?filter[size]=0' } },
  { name: 'a deepObject property it does not have', sent: { path: '/things?filter[weight]=3' } },
  { name: 'an unknown query parameter', sent: { path: '/things?colour=red' } },
];

describe('the fixture of shapes: the handlers answer as the service does', () => {
  it.each(cases)('$name', async ({ sent }) => {
    const [fromService, fromMock] = await Promise.all([answer(service.url, sent), answer(mockOrigin, sent)]);
    expect(fromMock).toEqual(fromService);
  });
});
