// The example app in Chromium in MSW mode: the client's generated MSW handlers answer every API call
// from a service worker (msw's mockServiceWorker.js, served by the dev server), with nothing else
// running: what a frontend team sees before the service exists. The handlers answer the spec's
// examples, so every expectation is read from the spec. This replaces the Prism-mock run (same
// answers, same page, no Prism process to start).
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuccessData } from '@invoice-api/client';
import type { ApiError, SearchCriterion } from '@invoice-api/contract';
import { startExampleApp, type RunningExampleApp } from '../dev/serve.mjs';
import { ExampleAppPage, downloadedBytes } from './app-page.js';
import { launchChromium, screenshot, watchPage, type PageWatch } from './browser.js';
import { csvHeader, csvRecords, pixelPng, textNamedPdf } from './sample-files.js';
import { firstExample, mediaExample } from './spec-examples.js';

// Nothing answers at this address (`.invalid` never resolves): only the service worker can.
const apiBaseUrl = 'http://api.invalid';
const searchPath = '/api/v1/invoices/search';
const deliveriesPath = '/2.0/delivery';
let app: RunningExampleApp;
let browser: Browser;
let page: Page;
let watch: PageWatch;
const apiRequests: Request[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([startExampleApp({ apiBaseUrl, apiToken: '', mock: 'msw', watch: false }), launchChromium()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  watch = watchPage(page);
  page.on('request', (request) => {
    if (request.url().startsWith(apiBaseUrl)) apiRequests.push(request);
  });
});

afterAll(async () => {
  await page?.close();
  await Promise.allSettled([browser?.close(), app?.stop()]);
});

/** The API requests the page sent to this method and path, in order. */
function sent(method: string, path: string): Request[] {
  return apiRequests.filter((request) => request.method() === method && new URL(request.url()).pathname === path);
}

describe('the example app in MSW mode (the generated handlers in a service worker)', () => {
  it('searches, loads a second page by cursor, opens an invoice, refetches the delivery list after each delivery write, and shows a refused search', async () => {
    const user = new ExampleAppPage(page);
    const searchPage = firstExample<SuccessData<'searchInvoices'>>(searchPath, 'post', 200);
    const { total, next_cursor: nextCursor } = searchPage.pagination;
    const numbers = searchPage.data.map((invoice) => invoice.invoice_number);

    await user.open(app.url);
    expect(await page.locator('header .api').innerText()).toBe(`API: ${apiBaseUrl} (answered by the MSW handlers in a service worker)`);
    expect(await user.summary.innerText()).toBe(`Showing 1–${numbers.length} of ${total} invoices`);
    expect(await user.column('invoice_number')).toEqual(numbers);

    // A criterion and a sort: the handlers check the request as the service would (a bad one is a
    // 400 the watch would report) and answer the example, so what is checked is what the page sent.
    await user.addCriterion('status', '=', 'paid');
    await user.search();
    await user.sortBy('Amount');
    expect(await user.sortState('Amount')).toBe('ascending');
    const lastSearch = sent('POST', searchPath).at(-1)?.postDataJSON();
    expect(lastSearch).toMatchObject({ criteria: [{ field: 'status', operator: '=', value: 'paid' } satisfies SearchCriterion], order_by: 'amount' });
    // The first page of an infinite list sends no cursor at all.
    expect(lastSearch).not.toHaveProperty('cursor');

    // "Load more": the page after the last, by the answer's next_cursor; both pages are shown.
    expect(nextCursor).toEqual(expect.any(String));
    await user.loadMore();
    expect(sent('POST', searchPath).at(-1)?.postDataJSON()).toMatchObject({ cursor: nextCursor, order_by: 'amount' });
    expect(await user.loadedLabel()).toBe('2 pages loaded');
    expect(await user.column('invoice_number')).toEqual([...numbers, ...numbers]);
    await screenshot(page, 'msw-1-search');

    const invoice = firstExample<SuccessData<'getInvoice'>>('/api/v1/invoices/{invoice_id}', 'get', 200).invoice;
    await user.openInvoice(numbers[0]!);
    expect(await user.detail.getByRole('heading', { level: 2 }).innerText()).toBe(`Invoice ${invoice.invoice_number}`);
    expect(await user.detailRows()).toMatchObject({ Number: invoice.invoice_number, Status: invoice.status, Description: invoice.description });

    const { deliveries } = firstExample<SuccessData<'listDeliveries'>>(deliveriesPath, 'get', 200);
    const drafts = deliveries.filter((delivery) => delivery.status === 'draft').length;
    expect(await user.deliveriesSummary.innerText()).toBe(`${deliveries.length} deliveries: ${drafts} drafts, ${deliveries.length - drafts} issued`);
    const listReads = sent('GET', deliveriesPath).length;
    // Marks this document: a reload would drop the mark.
    await page.evaluate(() => {
      document.body.dataset.loadedOnce = 'yes';
    });

    const draft = firstExample<SuccessData<'createDelivery'>>(deliveriesPath, 'post', 201).delivery;
    await user.fillDeliveryLine(1, 5001, 3, 19.99);
    await user.createDraft();
    expect(await user.delivery.getByRole('heading').innerText()).toBe(`Delivery ${draft.delivery_nr}`);
    expect(await user.statusLine.innerText()).toBe(`Delivery ${draft.delivery_nr} created as a draft`);
    // The handlers keep no state, so the list's content stays the example: what shows the
    // mutation's invalidation is that the open list was read again, in the same document.
    expect(sent('GET', deliveriesPath).length).toBe(listReads + 1);

    const issued = firstExample<SuccessData<'issueDelivery'>>('/2.0/delivery/issue', 'post', 200);
    await user.issueDelivery();
    expect(await user.problem.isHidden()).toBe(true);
    expect(await user.delivery.locator('.delivery-status').innerText()).toBe(issued.status.toUpperCase());
    expect(sent('GET', deliveriesPath).length).toBe(listReads + 2);
    expect(await page.evaluate(() => document.body.dataset.loadedOnce)).toBe('yes');
    await screenshot(page, 'msw-2-issued');

    // The handlers refuse what the service refuses, in its words: the panel shows their 400.
    await user.addCriterion('amount', '>', 'a lot');
    watch.expectErrorResponse({ method: 'POST', path: searchPath, status: 400 });
    await user.search();
    expect(await user.problem.getByRole('heading').innerText()).toBe('Search failed: 400 invalid_request');
    expect(await user.problem.locator('.problem-detail').innerText()).toMatch(/^amount: /);
    await screenshot(page, 'msw-3-refused');

    expect(watch.unexpected()).toEqual([]);
  });

  it("exports the search as the handlers' CSV, downloads an invoice's PDF, lists its attachments, uploads one (the list read again), and shows the 415 and 413 of a refused file", async () => {
    const user = new ExampleAppPage(page);
    await user.open(app.url);

    const csv = mediaExample('/api/v1/invoices/export', 'post', 200, 'text/csv');
    expect(typeof csv).toBe('string');
    const exported = await user.exportCsv();
    expect(exported.suggestedFilename()).toBe('invoices.csv');
    const text = (await downloadedBytes(exported)).toString('utf8');
    expect(text).toBe(csv);
    expect(csvRecords(text)[0]).toBe(csvHeader);
    const rows = csvRecords(text).length - 1;
    expect(await user.statusLine.innerText()).toBe(`Exported ${rows} invoices to invoices.csv`);
    // The export sends the list's criteria and order, and no page.
    const exportBody = sent('POST', '/api/v1/invoices/export').at(-1)?.postDataJSON();
    expect(exportBody).toEqual({ criteria: [], order_by: 'created_at', order_direction: 'desc' });

    const searchPage = firstExample<SuccessData<'searchInvoices'>>(searchPath, 'post', 200);
    const invoice = firstExample<SuccessData<'getInvoice'>>('/api/v1/invoices/{invoice_id}', 'get', 200).invoice;
    await user.openInvoice(searchPage.data[0]!.invoice_number);
    const pdf = await user.downloadPdf();
    expect(pdf.suggestedFilename()).toBe(`${invoice.invoice_number}.pdf`);
    expect((await downloadedBytes(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { attachments } = firstExample<SuccessData<'listInvoiceAttachments'>>('/api/v1/invoices/{invoice_id}/attachments', 'get', 200);
    expect(await user.attachmentsSummary.innerText()).toBe(`${attachments.length} attachments`);
    expect((await user.attachmentRows()).map((row) => row.fileName)).toEqual(attachments.map((attachment) => attachment.file_name));
    const attachmentsPath = `/api/v1/invoices/${invoice.id}/attachments`;
    const listReads = sent('GET', attachmentsPath).length;
    await user.uploadAttachment(pixelPng, 'A pixel');
    const uploaded = firstExample<SuccessData<'uploadInvoiceAttachment'>>(attachmentsPath.replace(String(invoice.id), '{invoice_id}'), 'post', 201);
    expect(await user.statusLine.innerText()).toContain(`${uploaded.attachment.file_name} attached`);
    expect((await user.uploadProgress()).label).toBe('100%');
    // The handlers keep no state: what shows the upload mutation's invalidation is that the list was read again.
    expect(sent('GET', attachmentsPath).length).toBe(listReads + 1);
    await screenshot(page, 'msw-4-files');

    // The handlers refuse what the service refuses, by the file's bytes and size: the panel shows their words.
    const refusals = [
      { file: textNamedPdf, status: 415 },
      { file: { name: 'scan.png', mimeType: 'image/png', buffer: Buffer.concat([pixelPng.buffer, Buffer.alloc(10 * 1024 * 1024)]) }, status: 413 },
    ];
    for (const { file, status } of refusals) {
      watch.expectErrorResponse({ method: 'POST', path: attachmentsPath, status });
      const [refusal] = await Promise.all([
        page.waitForResponse((candidate) => candidate.request().method() === 'POST' && new URL(candidate.url()).pathname === attachmentsPath),
        user.uploadAttachment(file),
      ]);
      const refused = (await refusal.json()) as ApiError;
      expect(await user.problem.getByRole('heading').innerText()).toBe(`Uploading the file failed: ${status} ${refused.error}`);
      expect(await user.problem.locator('.problem-message').innerText()).toBe(refused.message);
    }

    expect(watch.unexpected()).toEqual([]);
  });
});
