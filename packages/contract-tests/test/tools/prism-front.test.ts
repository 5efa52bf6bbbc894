// `pnpm mock` over a spec with a byte answer: Prism cannot send a PDF (stoplightio/prism#2054), so
// startPrism puts a small front before it (scripts/lib/prism-front.mjs). Over the fixture spec of
// shapes, the PDF download answers a valid PDF with its Content-Type, the same bytes the MSW handlers
// send; everything else is Prism's as before (its 401 and its `Prefer: code=404`, text, a 204, JSON
// or CSV by Accept, its 400 for a bad query). The product's PDF and attachment downloads get the same.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byteAnswers, needsFront } from '../../../../scripts/lib/prism-front.mjs';
import { repoRoot, startPrism, type RunningPrism } from '../../../../scripts/lib/prism.mjs';
import { sampleFile } from '../../../../scripts/lib/sample-files.mjs';

const fixture = 'packages/contract/test/fixtures/shapes';
const auth = { Authorization: 'Bearer any' };
// The fixture's bundle, brought up to date first (a no-op when the spec and generator are unchanged).
execFileSync(process.execPath, ['scripts/generate.mjs', '--spec', `${fixture}/openapi.yaml`, '--out', `${fixture}/generated`], {
  cwd: repoRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
});

function bundle(path: string): unknown {
  return JSON.parse(readFileSync(join(repoRoot, path), 'utf8'));
}

describe('which specs need the front', () => {
  it('the fixture has one byte answer, without an example; the product two: the PDF and an attachment', () => {
    const shapes = byteAnswers(bundle(`${fixture}/generated/openapi.json`)).filter((operation) => Object.keys(operation.answers).length > 0);
    expect(shapes).toEqual([
      {
        operationId: 'downloadReport',
        method: 'GET',
        segments: ['reports', '{report_id}'],
        answers: { 200: [{ mediaType: 'application/pdf', hasExample: false }] },
      },
    ]);
    const product = byteAnswers(bundle('packages/contract/generated/openapi.json')).filter((operation) => Object.keys(operation.answers).length > 0);
    expect(product.map((operation) => [operation.operationId, operation.answers[200]?.map((answer) => answer.mediaType)])).toEqual([
      ['getInvoicePdf', ['application/pdf']],
      ['getInvoiceAttachment', ['application/pdf', 'image/png', 'image/jpeg']],
    ]);
    expect(needsFront(product)).toBe(true);
  });
});

describe('the mock of the product', () => {
  let mock: RunningPrism | undefined;
  beforeAll(async () => {
    mock = await startPrism({ mode: 'mock', spec: join(repoRoot, 'packages/contract/generated/openapi.yaml') });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('answers the invoice as a valid PDF, and an attachment as the file type asked for', async () => {
    const pdf = await fetch(`${mock?.url}/api/v1/invoices/1/pdf`, { headers: auth });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(sampleFile('application/pdf'));
    const png = await fetch(`${mock?.url}/api/v1/invoices/1/attachments/1`, { headers: { ...auth, Accept: 'image/png' } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(sampleFile('image/png'));
  });
});

describe('the mock of a spec with a byte answer', () => {
  let mock: RunningPrism | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    mock = await startPrism({ mode: 'mock', spec: join(repoRoot, fixture, 'generated/openapi.yaml'), onOutput: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  const call = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${mock?.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });

  it('says what the front answers', () => {
    expect(lines.join('\n')).toContain('answers the byte answers Prism cannot send with a small valid file (downloadReport 200 application/pdf)');
  });

  it('GET /reports/1 with a bearer token: a valid PDF as application/pdf, the bytes the MSW handlers send', async () => {
    const response = await call('/reports/1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    expect(bytes).toEqual(sampleFile('application/pdf'));
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
  });

  it('the rest of that operation is Prism’s: no token 401, Prefer: code=404, both JSON', async () => {
    const anonymous = await fetch(`${mock?.url}/reports/1`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/json');
    const missing = await call('/reports/1', { headers: { Prefer: 'code=404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
  });

  it('text, a 204, and JSON or CSV by Accept, as Prism answers them', async () => {
    const log = await call('/logs');
    expect(log.headers.get('content-type')).toContain('text/plain');
    expect(await log.text()).toBe('started\nstopped\n');
    const removed = await call('/reports/1', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    expect((await call('/reports/export')).headers.get('content-type')).toContain('application/json');
    const csv = await call('/reports/export', { headers: { Accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toBe('id,title\r\n1,Q1\r\n');
  });

  it('requests Prism refuses are refused as before, uploads pass through', async () => {
    expect((await call('/things?status=bad')).status).toBe(400);
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'a.pdf');
    expect((await call('/documents', { method: 'POST', body: form })).status).toBe(201);
  });
});
