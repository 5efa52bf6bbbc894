// The example app in Chromium against the stateful mock (`pnpm mock:stateful`), the way a frontend team
// runs it: no CORS setting anywhere (the app's origin is a local one), the printed kind of development
// token, and state that holds across calls: the invoice list loads a second page by cursor, an invoice
// created from Node is found by the page's search, a delivery created and issued in the page shows in
// its delivery list without a reload and stays issued, a file attached to that invoice in the page is
// read back from Node, and POST /__mock/reset brings the fixture back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, expectOk, type ApiClient } from '@invoice-api/client';
import { freePort, startService, type RunningService } from '@invoice-api/contract-tests/service';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { startExampleApp, type RunningExampleApp } from '../dev/serve.mjs';
import { ExampleAppPage } from './app-page.js';
import { launchChromium, screenshot, watchPage, type PageWatch } from './browser.js';
import { pixelPng } from './sample-files.js';

let workDir: string;
let mock: RunningService;
let app: RunningExampleApp;
let browser: Browser;
let page: Page;
let watch: PageWatch;
let api: ApiClient;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'example-app-stateful-mock-'));
  const keyFile = join(workDir, 'dev-key.json');
  const token = await mintDevToken({ keyFile });
  const port = await freePort();
  // A small fixture starts quicker; the command is the one `pnpm mock:stateful` runs.
  const args = ['--port', String(port), '--invoices', '300', '--deliveries', '10'];
  [mock, browser] = await Promise.all([startService({ keyFile, port, entry: 'packages/server/dist/mock-cli.js', args }), launchChromium()]);
  app = await startExampleApp({ apiBaseUrl: mock.url, apiToken: token, watch: false });
  api = createApiClient({ baseUrl: mock.url, token });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  watch = watchPage(page);
});

afterAll(async () => {
  await page?.close();
  await Promise.allSettled([browser?.close(), app?.stop(), mock?.stop()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the example app against the stateful mock', () => {
  it('loads a second page by cursor, finds an invoice created from Node and attaches a file to it, lists and issues a delivery that stays issued, and shows the fixture again after a reset', async () => {
    const user = new ExampleAppPage(page);
    const fixtureTotal = (await expectOk(api.searchInvoices({ limit: 1 }))).pagination.total;
    await user.open(app.url);
    expect(await user.summary.innerText()).toBe(`Showing 1–10 of ${fixtureTotal} invoices`);
    const firstPage = await expectOk(api.searchInvoices({ limit: 10 }));
    const secondPage = await expectOk(api.searchInvoices({ limit: 10, cursor: firstPage.pagination.next_cursor ?? '' }));
    await user.loadMore();
    expect(await user.summary.innerText()).toBe(`Showing 1–20 of ${fixtureTotal} invoices`);
    expect(await user.column('invoice_number')).toEqual([...firstPage.data, ...secondPage.data].map((invoice) => invoice.invoice_number));

    const [client] = (await expectOk(api.listCompanyClients())).company_clients;
    const { invoice } = await expectOk(
      api.createInvoice({ client_id: client?.id ?? 0, amount: 321.5, currency: 'CHF', due_date: '2027-04-30', description: 'Created from Node' }),
    );
    await user.addCriterion('invoice_number', '=', invoice.invoice_number);
    await user.search();
    expect(await user.summary.innerText()).toBe('Showing 1–1 of 1 invoices');
    expect(await user.column('invoice_number')).toEqual([invoice.invoice_number]);
    await screenshot(page, 'stateful-mock-1-created-found');

    // A file attached in the page is the mock's state too: Node lists it and reads the same bytes.
    await user.openInvoice(invoice.invoice_number);
    await user.uploadAttachment(pixelPng);
    expect(await user.uploadProgress()).toEqual({ value: 100, label: '100%' });
    expect((await user.attachmentRows()).map((row) => [row.fileName, row.size])).toEqual([['pixel.png', `${pixelPng.buffer.length} bytes`]]);
    const [attached] = (await expectOk(api.listInvoiceAttachments(invoice.id))).attachments;
    expect(attached).toMatchObject({ file_name: 'pixel.png', media_type: 'image/png', size: pixelPng.buffer.length });
    const bytes = await expectOk(api.getInvoiceAttachment(invoice.id, attached?.id ?? 0));
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(pixelPng.buffer);

    const fixtureDeliveries = (await expectOk(api.listDeliveries({ limit: 1000 }))).deliveries;
    const fixtureDrafts = fixtureDeliveries.filter((delivery) => delivery.status === 'draft').length;
    const listLine = (count: number, drafts: number) => `${count} deliveries: ${drafts} drafts, ${count - drafts} issued`;
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(fixtureDeliveries.length, fixtureDrafts));
    // Marks this document: a reload would drop the mark.
    await page.evaluate(() => {
      document.body.dataset.loadedOnce = 'yes';
    });
    await page.getByLabel('Delivery date').fill('2026-12-01');
    await user.fillDeliveryLine(1, 5001, 2, 10.5);
    await user.createDraft();
    const deliveryNr = (await user.delivery.getByRole('heading').innerText()).replace('Delivery ', '');
    // The create mutation invalidated the delivery list: it refetched and shows the draft.
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(fixtureDeliveries.length + 1, fixtureDrafts + 1));
    expect((await user.latestDeliveries())[0]).toBe(deliveryNr);
    await user.issueDelivery();
    expect(await user.delivery.locator('.delivery-status').innerText()).toBe('ISSUED');
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(fixtureDeliveries.length + 1, fixtureDrafts));
    expect(await page.evaluate(() => document.body.dataset.loadedOnce)).toBe('yes');
    const issued = (await expectOk(api.listDeliveries({ limit: 1000 }))).deliveries.find((delivery) => delivery.delivery_nr === deliveryNr);
    expect(issued).toMatchObject({ status: 'issued', total_amount: 21 });
    expect(await expectOk(api.getDelivery(issued?.id ?? 0))).toMatchObject({ delivery: { status: 'issued', total_amount: 21 } });
    await screenshot(page, 'stateful-mock-2-issued');

    const reset = await fetch(new URL('/__mock/reset', mock.url), { method: 'POST' });
    expect(reset.status).toBe(200);
    await user.open(app.url);
    expect(await user.summary.innerText()).toBe(`Showing 1–10 of ${fixtureTotal} invoices`);
    expect(await user.deliveriesSummary.innerText()).toBe(listLine(fixtureDeliveries.length, fixtureDrafts));
    expect((await api.getDelivery(issued?.id ?? 0)).status).toBe(404);
    expect((await api.getInvoice(invoice.id)).status).toBe(404);
    expect((await api.getInvoiceAttachment(invoice.id, attached?.id ?? 0)).status).toBe(404);
    await screenshot(page, 'stateful-mock-3-reset');

    expect(watch.unexpected()).toEqual([]);
  });
});
