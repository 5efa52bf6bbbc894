// The invoice as PDF through real HTTP on both engines: the document is read back with a real PDF
// parser (Mozilla's pdf.js) and holds every value the JSON gives, in an embedded font; its ETag is the
// invoice's, so If-None-Match answers 304 with no body until the invoice changes; the usual refusals.
import { randomUUID } from 'node:crypto';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { accountCalls } from '../http/support/account-calls.js';
import { rawRequest } from '../http/support/responses.js';
import { startTestService, token, type TestService } from '../http/support/service.js';

interface InvoiceJson {
  id: number;
  invoice_number: string;
  client_name: string;
  amount: number;
  currency: string;
  status: string;
  due_date: string;
  created_at: string;
  updated_at: string;
  description: string;
}

/** The text of every page, as pdf.js extracts it, one string per text run. */
async function pdfText(bytes: Uint8Array): Promise<{ runs: string[]; fontsEmbedded: boolean[] }> {
  const document = await getDocument({ data: bytes, useSystemFonts: false, disableFontFace: true, isEvalSupported: false }).promise;
  const runs: string[] = [];
  const fontsEmbedded: boolean[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    for (const item of content.items) if ('str' in item && item.str.trim() !== '') runs.push(item.str);
    // Each font the page uses: pdf.js marks a font it had to substitute (not in the file) as missingFile.
    await page.getOperatorList();
    for (const name of Object.keys(content.styles)) {
      const font = page.commonObjs.get(name) as { missingFile?: boolean };
      fontsEmbedded.push(font.missingFile !== true);
    }
  }
  await document.destroy();
  return { runs, fontsEmbedded };
}

describe.each(engines)('the invoice as PDF on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'invoice_pdf' });
  let service: TestService;
  let account: TestAccount;
  let bearer: string;
  let otherBearer: string;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 1 });
    const other = await createAccount(database(), { clients: 1 });
    await database().db.updateTable('accounts').set({ name: 'Müller & Söhne AG' }).where('id', '=', account.accountId).execute();
    await database().db.updateTable('company_clients').set({ name: 'Zoë Ωmega Ltd' }).where('id', '=', account.clientIds[0]!).execute();
    bearer = await token({ accountId: account.accountId, clientId: `pdf-${randomUUID()}` });
    otherBearer = await token({ accountId: other.accountId, clientId: `pdf-${randomUUID()}` });
    service = await startTestService({ database: database(), handlers: createHandlers() });
  });
  afterAll(() => service?.close());

  const { call } = accountCalls(
    () => service.url,
    () => bearer,
    () => account,
  );

  async function newInvoice(body: Record<string, unknown> = {}): Promise<{ invoice: InvoiceJson; etag: string }> {
    const created = await call('POST', '/api/v1/invoices', {
      client_id: account.clientIds[0],
      amount: 1250.5,
      currency: 'EUR',
      due_date: '2026-03-31',
      description: 'Consulting, March: ünïcode',
      ...body,
    });
    expect(created.status).toBe(201);
    const { invoice } = (await created.json()) as { invoice: InvoiceJson };
    const read = await call('GET', `/api/v1/invoices/${invoice.id}`);
    return { invoice, etag: read.headers.get('etag') ?? '' };
  }

  it('holds every value the JSON gives, in an embedded font, named after the invoice and tagged as the invoice', async () => {
    const { invoice, etag } = await newInvoice({ status: 'sent' });
    const response = await call('GET', `/api/v1/invoices/${invoice.id}/pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename=${invoice.invoice_number}.pdf`);
    expect(response.headers.get('etag')).toBe(etag);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);

    const { runs, fontsEmbedded } = await pdfText(bytes);
    const text = runs.join('\n');
    for (const value of [
      'Müller & Söhne AG',
      'Zoë Ωmega Ltd',
      invoice.invoice_number,
      invoice.status,
      invoice.due_date,
      invoice.created_at,
      invoice.updated_at,
      invoice.description,
      `${invoice.amount.toFixed(2)} ${invoice.currency}`,
    ])
      expect(text, value).toContain(value);
    expect(invoice.amount).toBe(1250.5);
    expect(fontsEmbedded.length).toBeGreaterThan(0);
    expect(fontsEmbedded.every(Boolean)).toBe(true);
  });

  it('renders one version of an invoice to the same bytes, and a changed invoice anew', async () => {
    const { invoice } = await newInvoice();
    const first = Buffer.from(await (await call('GET', `/api/v1/invoices/${invoice.id}/pdf`)).arrayBuffer());
    const again = Buffer.from(await (await call('GET', `/api/v1/invoices/${invoice.id}/pdf`)).arrayBuffer());
    expect(again.equals(first)).toBe(true);
    expect((await call('PATCH', `/api/v1/invoices/${invoice.id}`, { description: 'Changed' })).status).toBe(200);
    const changed = await call('GET', `/api/v1/invoices/${invoice.id}/pdf`);
    const { runs } = await pdfText(new Uint8Array(await changed.arrayBuffer()));
    expect(runs).toContain('Changed');
  });

  it('answers 304 without a body to a current If-None-Match (strong, weak, in a list, or *), 200 to a stale one', async () => {
    const { invoice, etag } = await newInvoice();
    const path = `/api/v1/invoices/${invoice.id}/pdf`;
    for (const condition of [etag, `W/${etag}`, `"0-0", ${etag}`, '*']) {
      const response = await call('GET', path, undefined, { 'if-none-match': condition });
      expect(response.status, condition).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(await response.text()).toBe('');
    }
    const updated = await call('PATCH', `/api/v1/invoices/${invoice.id}`, { description: 'New words' });
    const newTag = updated.headers.get('etag');
    expect(newTag).not.toBe(etag);
    const stale = await call('GET', path, undefined, { 'if-none-match': etag });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(newTag);
    expect(
      Buffer.from(await stale.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('answers getInvoice, which declares no If-None-Match, 200 with its body even to its current ETag, as a browser sends it', async () => {
    const { invoice, etag } = await newInvoice();
    // Without fetch's added `Cache-Control: no-cache`: express's own freshness check would answer 304.
    for (const method of ['GET', 'HEAD']) {
      const answer = await rawRequest(`${service.url}/api/v1/invoices/${invoice.id}`, method, { authorization: `Bearer ${bearer}`, 'if-none-match': etag });
      expect(answer.status, method).toBe(200);
      expect(answer.headers.etag).toBe(etag);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      if (method === 'GET') expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ invoice: { id: invoice.id } });
      else expect(answer.body.byteLength).toBe(0);
    }
    const pdf = await rawRequest(`${service.url}/api/v1/invoices/${invoice.id}/pdf`, 'GET', { authorization: `Bearer ${bearer}`, 'if-none-match': etag });
    expect(pdf.status).toBe(304);
  });

  it('refuses a malformed If-None-Match with 400 naming it; another operation ignores the header', async () => {
    const { invoice } = await newInvoice();
    const refused = await call('GET', `/api/v1/invoices/${invoice.id}/pdf`, undefined, { 'if-none-match': 'not-a-tag' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_request', details: { field: 'If-None-Match' } });
    // getInvoice declares no If-None-Match: a browser may send one by itself, and it changes nothing.
    expect((await call('GET', `/api/v1/invoices/${invoice.id}`, undefined, { 'if-none-match': 'not-a-tag' })).status).toBe(200);
  });

  it("is 404 for a missing invoice and another account's, 400 for a bad id, 403 without invoices:read", async () => {
    const { invoice } = await newInvoice();
    const missing = await call('GET', '/api/v1/invoices/2147483000/pdf');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found', message: 'Invoice 2147483000 not found.' });
    expect((await call('GET', `/api/v1/invoices/${invoice.id}/pdf`, undefined, {}, otherBearer)).status).toBe(404);
    const badId = await call('GET', '/api/v1/invoices/0x1/pdf');
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ details: { field: 'invoice_id' } });
    const scopeless = await token({ accountId: account.accountId, scopes: ['clients:read'] });
    const forbidden = await call('GET', `/api/v1/invoices/${invoice.id}/pdf`, undefined, {}, scopeless);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toContain('scope="invoices:read"');
  });

  it('answers HEAD with the GET’s status and headers and no body', async () => {
    const { invoice, etag } = await newInvoice();
    const response = await call('HEAD', `/api/v1/invoices/${invoice.id}/pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('etag')).toBe(etag);
    expect(await response.text()).toBe('');
  });
});
