// The example app in Chromium against the real service (PGlite in memory, demo data, CORS for the
// app's origin only): what the user reads must be what the API answers, checked against the same
// calls made from Node with the typed client.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, expectOk, type ApiClient } from '@invoice-api/client';
import type { ApiError, SearchCriterion } from '@invoice-api/contract';
import { freePort, startService, type RunningService } from '@invoice-api/contract-tests/service';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { startExampleApp, type RunningExampleApp } from '../dev/serve.mjs';
import { ExampleAppPage, downloadedBytes } from './app-page.js';
import { launchChromium, screenshot, watchPage, type PageWatch } from './browser.js';
import { csvHeader, csvRecords, pixelPng, textNamedPdf } from './sample-files.js';

let workDir: string;
let service: RunningService;
let app: RunningExampleApp;
let browser: Browser;
let page: Page;
let watch: PageWatch;
let api: ApiClient;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'example-app-service-'));
  const keyFile = join(workDir, 'dev-key.json');
  // Minting first writes the key file the service then verifies with.
  const token = await mintDevToken({ keyFile });
  const serviceUrl = `http://127.0.0.1:${await freePort()}`;
  app = await startExampleApp({ apiBaseUrl: serviceUrl, apiToken: token, watch: false });
  // The service lets exactly the app's origin call it from a page.
  [service, browser] = await Promise.all([startService({ keyFile, port: Number(new URL(serviceUrl).port), env: { CORS_ORIGINS: app.url } }), launchChromium()]);
  api = createApiClient({ baseUrl: service.url, token });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  watch = watchPage(page);
});

afterAll(async () => {
  await page?.close();
  await Promise.allSettled([browser?.close(), app?.stop(), service?.stop()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** `1,250.50 CHF` -> 1250.5 */
function shownAmount(text: string): number {
  return Number(text.replace(/[^\d.-]/g, ''));
}

describe('the example app against the service', () => {
  it('searches with a criterion, sorts, loads a second page by cursor with the exact total, opens an invoice, and creates and issues a delivery the list then shows', async () => {
    const user = new ExampleAppPage(page);
    const everything = await expectOk(api.searchInvoices({ limit: 1 }));
    await user.open(app.url);
    expect(await user.summary.innerText()).toBe(`Showing 1–10 of ${everything.pagination.total} invoices`);

    const paid: SearchCriterion[] = [{ field: 'status', operator: '=', value: 'paid' }];
    const paidTotal = (await expectOk(api.searchInvoices({ criteria: paid, limit: 1 }))).pagination.total;
    expect(paidTotal).toBeGreaterThan(20);
    await user.addCriterion('status', '=', 'paid');
    await user.search();
    expect(await user.summary.innerText()).toBe(`Showing 1–10 of ${paidTotal} invoices`);
    expect(new Set(await user.column('status'))).toEqual(new Set(['paid']));

    await user.sortBy('Amount');
    expect(await user.sortState('Amount')).toBe('ascending');
    const firstPage = await expectOk(api.searchInvoices({ criteria: paid, order_by: 'amount', order_direction: 'asc', limit: 10, offset: 0 }));
    expect(await user.column('invoice_number')).toEqual(firstPage.data.map((invoice) => invoice.invoice_number));
    const amounts = (await user.column('amount')).map(shownAmount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));

    // "Load more": the second page by the first page's cursor, under the first.
    await user.loadMore();
    expect(await user.summary.innerText()).toBe(`Showing 1–20 of ${paidTotal} invoices`);
    expect(await user.loadedLabel()).toBe('2 pages loaded');
    const secondPage = await expectOk(
      api.searchInvoices({ criteria: paid, order_by: 'amount', order_direction: 'asc', limit: 10, cursor: firstPage.pagination.next_cursor ?? '' }),
    );
    expect(await user.column('invoice_number')).toEqual([...firstPage.data, ...secondPage.data].map((invoice) => invoice.invoice_number));
    await screenshot(page, 'service-1-search');

    const chosen = secondPage.data[0]!;
    const { invoice } = await expectOk(api.getInvoice(chosen.id));
    await user.openInvoice(chosen.invoice_number);
    expect(await user.detail.getByRole('heading', { level: 2 }).innerText()).toBe(`Invoice ${invoice.invoice_number}`);
    expect(await user.detailRows()).toMatchObject({
      Number: invoice.invoice_number,
      Client: `${invoice.client_name} (#${invoice.client_id})`,
      Status: 'paid',
      Description: invoice.description,
    });
    expect(shownAmount((await user.detailRows()).Amount ?? '')).toBe(invoice.amount);
    await screenshot(page, 'service-2-invoice');

    const deliveriesBefore = (await expectOk(api.listDeliveries({ limit: 1000 }))).deliveries;
    const draftsBefore = deliveriesBefore.filter((delivery) => delivery.status === 'draft').length;
    const listLine = (count: number, drafts: number) => `${count} deliveries: ${drafts} drafts, ${count - drafts} issued`;
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(deliveriesBefore.length, draftsBefore));
    // Marks this document: a reload would drop the mark.
    await page.evaluate(() => {
      document.body.dataset.loadedOnce = 'yes';
    });

    const { company_clients: clients } = await expectOk(api.listCompanyClients());
    expect(await user.contactOptions()).toEqual(clients.map((client) => `${client.name} (#${client.id})`));
    await page.getByLabel('Delivery date').fill('2026-12-01');
    await user.fillDeliveryLine(1, 5001, 3, 19.99);
    await user.page.getByRole('button', { name: 'Add line' }).click();
    await user.fillDeliveryLine(2, 5002, 2.5, 4.1);
    await user.createDraft();
    const heading = await user.delivery.getByRole('heading').innerText();
    expect(heading).toMatch(/^Delivery LS-\d{6,}$/);
    const deliveryNr = heading.replace('Delivery ', '');
    expect(await user.delivery.locator('.delivery-status').innerText()).toBe('DRAFT');
    // 3 x 19.99 + 2.5 x 4.10, each line rounded half-up to cents, summed by the service.
    expect(await user.delivery.innerText()).toContain(`contact #${clients[0]!.id} · date 2026-12-01 · total 70.22`);
    expect(await user.statusLine.innerText()).toBe(`Delivery ${deliveryNr} created as a draft`);
    // The create mutation invalidated the delivery list: it shows the draft, without a reload.
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(deliveriesBefore.length + 1, draftsBefore + 1));
    expect((await user.latestDeliveries())[0]).toBe(deliveryNr);

    await user.issueDelivery();
    expect(await user.problem.isHidden()).toBe(true);
    expect(await user.delivery.locator('.delivery-status').innerText()).toBe('ISSUED');
    expect(await user.statusLine.innerText()).toBe(`Delivery ${deliveryNr} issued`);
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(deliveriesBefore.length + 1, draftsBefore));
    expect(await page.evaluate(() => document.body.dataset.loadedOnce)).toBe('yes');
    const { deliveries } = await expectOk(api.listDeliveries({ limit: 1000 }));
    expect(deliveries.find((delivery) => delivery.delivery_nr === deliveryNr)).toMatchObject({ status: 'issued', total_amount: 70.22 });
    await screenshot(page, 'service-3-issued');

    expect(watch.unexpected()).toEqual([]);
  });

  it("shows the service's 400 for a criterion value it rejects, with its message and the field it names", async () => {
    const user = new ExampleAppPage(page);
    await user.open(app.url);
    await user.addCriterion('amount', '>', 'a lot');
    watch.expectErrorResponse({ method: 'POST', path: '/api/v1/invoices/search', status: 400 });
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === 'POST' && candidate.url().endsWith('/api/v1/invoices/search')),
      user.search(),
    ]);
    const body = (await response.json()) as ApiError;
    expect(body.details?.field).toBe('amount');
    expect(await user.problem.getByRole('heading').innerText()).toBe(`Search failed: 400 ${body.error}`);
    expect(await user.problem.locator('.problem-message').innerText()).toBe(body.message);
    expect(await user.problem.locator('.problem-detail').innerText()).toBe(`amount: ${body.details?.issue}`);
    await screenshot(page, 'service-4-error');
    expect(watch.unexpected()).toEqual([]);
  });

  it("exports the search as CSV, one row per invoice it counted; downloads an invoice's PDF; attaches a PNG with its progress, downloads it, is refused a text named .pdf, and removes the PNG", async () => {
    const user = new ExampleAppPage(page);
    await user.open(app.url);
    const paid: SearchCriterion[] = [{ field: 'status', operator: '=', value: 'paid' }];
    await user.addCriterion('status', '=', 'paid');
    await user.search();
    const firstPage = await expectOk(api.searchInvoices({ criteria: paid, limit: 10 }));
    const total = firstPage.pagination.total;
    expect(await user.summary.innerText()).toBe(`Showing 1–10 of ${total} invoices`);

    // The export is the list's search (criteria and order), every row of it.
    const exported = await user.exportCsv();
    expect(exported.suggestedFilename()).toBe('invoices.csv');
    const csv = (await downloadedBytes(exported)).toString('utf8');
    const records = csvRecords(csv);
    expect(records[0]).toBe(csvHeader);
    expect(records.length - 1).toBe(total);
    expect(await user.statusLine.innerText()).toBe(`Exported ${total} invoices to invoices.csv`);
    expect(csv).toBe(await expectOk(api.exportInvoices({ criteria: paid, order_by: 'created_at', order_direction: 'desc' })));
    await screenshot(page, 'service-6-exported');

    const invoice = firstPage.data[0]!;
    await user.openInvoice(invoice.invoice_number);
    const pdf = await user.downloadPdf();
    expect(pdf.suggestedFilename()).toBe(`${invoice.invoice_number}.pdf`);
    expect((await downloadedBytes(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const attachmentsBefore = (await expectOk(api.listInvoiceAttachments(invoice.id))).attachments;
    expect((await user.attachmentRows()).map((row) => row.fileName)).toEqual(attachmentsBefore.map((attachment) => attachment.file_name));
    await user.uploadAttachment(pixelPng, 'One pixel');
    expect(await user.problem.isHidden()).toBe(true);
    expect(await user.uploadProgress()).toEqual({ value: 100, label: '100%' });
    expect(await user.statusLine.innerText()).toBe(`pixel.png attached (${pixelPng.buffer.length} bytes)`);
    // The upload mutation invalidated the list: it refetched and shows the file, its size and note.
    expect((await user.attachmentRows()).at(-1)).toEqual({
      fileName: 'pixel.png',
      mediaType: 'image/png',
      size: `${pixelPng.buffer.length} bytes`,
      note: 'One pixel',
    });
    const stored = (await expectOk(api.listInvoiceAttachments(invoice.id))).attachments;
    expect(stored).toHaveLength(attachmentsBefore.length + 1);
    const pixel = stored.at(-1)!;
    expect(pixel).toMatchObject({ file_name: 'pixel.png', media_type: 'image/png', size: pixelPng.buffer.length, note: 'One pixel' });
    expect(pixel.sha256).toBe(createHash('sha256').update(pixelPng.buffer).digest('hex'));

    const copy = await user.downloadAttachment('pixel.png');
    expect(copy.suggestedFilename()).toBe('pixel.png');
    expect(await downloadedBytes(copy)).toEqual(pixelPng.buffer);
    await screenshot(page, 'service-7-attached');

    // The browser declares a .pdf application/pdf; the API reads the bytes and refuses them.
    const uploadPath = `/api/v1/invoices/${invoice.id}/attachments`;
    watch.expectErrorResponse({ method: 'POST', path: uploadPath, status: 415 });
    const [refusal] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === 'POST' && new URL(candidate.url()).pathname === uploadPath),
      user.uploadAttachment(textNamedPdf),
    ]);
    const refused = (await refusal.json()) as ApiError;
    expect(refused.error).toBe('unsupported_media_type');
    expect(await user.problem.getByRole('heading').innerText()).toBe('Uploading the file failed: 415 unsupported_media_type');
    expect(await user.problem.locator('.problem-message').innerText()).toBe(refused.message);
    expect((await user.attachmentRows()).map((row) => row.fileName)).toEqual([...attachmentsBefore.map((attachment) => attachment.file_name), 'pixel.png']);
    await screenshot(page, 'service-8-refused');

    await user.removeAttachment('pixel.png');
    expect(await user.problem.isHidden()).toBe(true);
    expect(await user.statusLine.innerText()).toBe('pixel.png removed');
    expect((await user.attachmentRows()).map((row) => row.fileName)).toEqual(attachmentsBefore.map((attachment) => attachment.file_name));
    expect((await expectOk(api.listInvoiceAttachments(invoice.id))).attachments).toEqual(attachmentsBefore);
    expect((await api.getInvoiceAttachment(invoice.id, pixel.id)).status).toBe(404);

    expect(watch.unexpected()).toEqual([]);
  });

  it('says the API gave no answer, and names CORS_ORIGINS, when the page runs on an origin the service does not allow', async () => {
    // The same app on another port is another origin: the service sends it no CORS headers.
    const elsewhere = await startExampleApp({ apiBaseUrl: service.url, apiToken: 'unused', watch: false });
    const otherPage = await browser.newPage();
    try {
      const otherWatch = watchPage(otherPage);
      // The three reads are safe, so the client tries each three times (its default) before it gives up.
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        otherWatch.expectBlockedRequest({ method: 'POST', path: '/api/v1/invoices/search' });
        otherWatch.expectBlockedRequest({ method: 'GET', path: '/api/v1/company_clients' });
        otherWatch.expectBlockedRequest({ method: 'GET', path: '/2.0/delivery' });
      }
      const user = new ExampleAppPage(otherPage);
      await user.open(elsewhere.url);
      // Each call clears the last problem: the panel shows the page's last call, the deliveries.
      expect(await user.problem.getByRole('heading').innerText()).toBe('Loading the deliveries failed: No answer');
      const message = await user.problem.locator('.problem-message').innerText();
      expect(message).toContain(`Is the API at ${service.url} running, and does it allow this page's origin (${elsewhere.url}) in CORS_ORIGINS?`);
      await screenshot(otherPage, 'service-5-cors-refused');
      expect(otherWatch.unexpected()).toEqual([]);
    } finally {
      await otherPage.close();
      await elsewhere.stop();
    }
  });
});
