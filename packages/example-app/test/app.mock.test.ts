// The example app in Chromium against the Prism mock: what a frontend team sees before the service
// exists. The mock answers the spec's examples, so every expectation is read from the spec; the
// documented 409 is asked for with Prism's `Prefer` header, added to the request by the test.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuccessData } from '@invoice-api/client';
import type { ApiError, SearchCriterion } from '@invoice-api/contract';
import { bundledSpec, startPrism, type RunningPrism } from '../../../scripts/lib/prism.mjs';
import { startExampleApp, type RunningExampleApp } from '../dev/serve.mjs';
import { ExampleAppPage } from './app-page.js';
import { launchChromium, screenshot, watchPage, type PageWatch } from './browser.js';
import { firstExample, namedExample } from './spec-examples.js';

const searchPath = '/api/v1/invoices/search';
let workDir: string;
let mock: RunningPrism;
let app: RunningExampleApp;
let browser: Browser;
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'example-app-mock-'));
  // Prism reloads when its spec file changes; a private copy keeps it steady while others regenerate.
  const spec = join(workDir, 'openapi.yaml');
  copyFileSync(bundledSpec, spec);
  [mock, browser] = await Promise.all([startPrism({ mode: 'mock', spec }), launchChromium()]);
  app = await startExampleApp({ apiBaseUrl: mock.url, apiToken: 'any-token-works-against-the-mock', watch: false });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  watch = watchPage(page);
});

afterAll(async () => {
  await page?.close();
  await Promise.allSettled([browser?.close(), app?.stop(), mock?.stop()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The JSON body of the next request the page sends to this path, while `action` runs. */
async function sentBody(path: string, action: () => Promise<void>): Promise<unknown> {
  const [request] = await Promise.all([
    page.waitForRequest((candidate) => new URL(candidate.url()).pathname === path && candidate.method() === 'POST'),
    action(),
  ]);
  return request.postDataJSON();
}

describe('the example app against the mock', () => {
  it('searches with a criterion, sorts, pages, opens an invoice, creates and issues a delivery, and shows a documented error', async () => {
    const user = new ExampleAppPage(page);
    const searchPage = firstExample<SuccessData<'searchInvoices'>>(searchPath, 'post', 200);
    const { total, offset, limit } = searchPage.pagination;
    const expectedSummary = `Showing ${offset + 1}–${offset + searchPage.data.length} of ${total} invoices`;

    await user.open(app.url);
    expect(await page.locator('header .api').innerText()).toBe(`API: ${mock.url}`);
    expect(await user.summary.innerText()).toBe(expectedSummary);
    expect(await user.column('invoice_number')).toEqual(searchPage.data.map((invoice) => invoice.invoice_number));

    // A criterion: the mock answers its example whatever is asked, so what is checked is that the
    // page asked for it and drew the answer.
    await user.addCriterion('status', '=', 'paid');
    const searched = await sentBody(searchPath, () => user.search());
    expect(searched).toMatchObject({ criteria: [{ field: 'status', operator: '=', value: 'paid' } satisfies SearchCriterion], offset: 0 });
    expect(await user.summary.innerText()).toBe(expectedSummary);

    const sorted = await sentBody(searchPath, () => user.sortBy('Amount'));
    expect(sorted).toMatchObject({ order_by: 'amount', order_direction: 'asc' });
    expect(await user.sortState('Amount')).toBe('ascending');

    // The pager counts pages with the limit the API applied.
    expect(await user.pageLabel()).toBe(`Page 1 of ${Math.ceil(total / limit)}`);
    const paged = await sentBody(searchPath, () => user.nextPage());
    expect(paged).toMatchObject({ offset: offset + limit, order_by: 'amount' });
    await screenshot(page, 'mock-1-search');

    const invoice = firstExample<SuccessData<'getInvoice'>>('/api/v1/invoices/{invoice_id}', 'get', 200).invoice;
    await user.openInvoice(searchPage.data[0]!.invoice_number);
    await expect.poll(() => user.detail.getByRole('heading').innerText()).toBe(`Invoice ${invoice.invoice_number}`);
    expect(await user.detailRows()).toMatchObject({ Number: invoice.invoice_number, Status: invoice.status, Description: invoice.description });
    await screenshot(page, 'mock-2-invoice');

    const clients = firstExample<SuccessData<'listCompanyClients'>>('/api/v1/company_clients', 'get', 200).company_clients;
    expect(await user.contactOptions()).toEqual(clients.map((client) => `${client.name} (#${client.id})`));
    const draft = firstExample<SuccessData<'createDelivery'>>('/2.0/delivery', 'post', 201).delivery;
    await user.fillDeliveryLine(1, 5001, 3, 19.99);
    await user.createDraft();
    expect(await user.delivery.getByRole('heading').innerText()).toBe(`Delivery ${draft.delivery_nr}`);
    expect(await user.delivery.locator('.delivery-status').innerText()).toBe(draft.status.toUpperCase());
    expect(await user.statusLine.innerText()).toBe(`Delivery ${draft.delivery_nr} created as a draft`);

    // Issuing the same delivery twice is a documented 409; the mock gives it for `Prefer`.
    const alreadyIssued = namedExample<ApiError>('AlreadyIssued');
    await page.route('**/2.0/delivery/issue', (route) =>
      route.continue({ headers: { ...route.request().headers(), prefer: 'code=409, example=AlreadyIssued' } }),
    );
    watch.expectErrorResponse({ method: 'POST', path: '/2.0/delivery/issue', status: 409 });
    await user.issueDelivery();
    await page.unroute('**/2.0/delivery/issue');
    expect(await user.problem.getByRole('heading').innerText()).toBe(`Issuing the delivery failed: 409 ${alreadyIssued.error}`);
    expect(await user.problem.locator('.problem-message').innerText()).toBe(alreadyIssued.message);
    await screenshot(page, 'mock-3-error');

    const issued = firstExample<SuccessData<'issueDelivery'>>('/2.0/delivery/issue', 'post', 200);
    await user.issueDelivery();
    expect(await user.problem.isHidden()).toBe(true);
    expect(await user.delivery.locator('.delivery-status').innerText()).toBe(issued.status.toUpperCase());
    expect(await user.statusLine.innerText()).toBe(`Delivery ${issued.delivery_nr} issued`);
    await screenshot(page, 'mock-4-issued');

    expect(watch.unexpected()).toEqual([]);
  });
});
