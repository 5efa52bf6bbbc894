// The example app in Chromium in MSW mode: the client's generated MSW handlers answer every API call
// from a service worker (msw's mockServiceWorker.js, served by the dev server), with nothing else
// running: what a frontend team sees before the service exists. The handlers answer the spec's
// examples, so every expectation is read from the spec. This replaces the Prism-mock run (same
// answers, same page, no Prism process to start).
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuccessData } from '@invoice-api/client';
import type { SearchCriterion } from '@invoice-api/contract';
import { startExampleApp, type RunningExampleApp } from '../dev/serve.mjs';
import { ExampleAppPage } from './app-page.js';
import { launchChromium, screenshot, watchPage, type PageWatch } from './browser.js';
import { firstExample } from './spec-examples.js';

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
    expect(await user.detail.getByRole('heading').innerText()).toBe(`Invoice ${invoice.invoice_number}`);
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
});
