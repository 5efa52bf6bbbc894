// Debian's Chromium driven by playwright-core, and a watch over a page that turns every console error,
// page error, failed request and error response the scenario did not announce into a test failure.
// Nothing here downloads a browser: scripts/ensure-browser.sh installs Debian's `chromium` package.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { appRoot } from '../dev/serve.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots land here (git-ignored), one file per step, kept after the run for people to look at. */
export const screenshotDir = join(appRoot, 'test-output');

// The machine's network is closed: without these, Chromium's background services (updates, sync,
// safe browsing, QUIC probes) try to connect out and log errors of their own.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One headless Chromium; Playwright gives every launch a fresh temporary profile (user-data-dir). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No Chromium at ${chromiumPath}: run \`bash scripts/ensure-browser.sh\` (pnpm test does), or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

/**
 * The example app's pages are shot whole (one screen or two). A long page such as the API reference is
 * shot by what a person sees first (`screen`) or by one part of it (a locator): the whole of Redoc's
 * page is tens of thousands of pixels tall and takes Chromium longer to paint than a test should wait.
 */
export async function screenshot(target: Page | Locator, name: string, extent: 'whole page' | 'screen' = 'whole page'): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage: extent === 'whole page' });
  else await target.screenshot({ path });
}

export interface ExpectedErrorResponse {
  method: string;
  /** The URL's path, e.g. `/api/v1/invoices/search`. */
  path: string;
  status: number;
}

export interface ExpectedBlockedRequest {
  method: string;
  path: string;
}

export interface PageWatch {
  /** Announces one error response the scenario provokes on purpose (and the console line it causes). */
  expectErrorResponse(expected: ExpectedErrorResponse): void;
  /** Announces one request the browser's CORS check refuses (and the console lines it causes). */
  expectBlockedRequest(expected: ExpectedBlockedRequest): void;
  /** Everything that went wrong without being announced, as readable lines; empty when all is well. */
  unexpected(): string[];
}

// Chromium logs every 4xx/5xx answer a page fetched as a console error of this form.
const resourceError = /^Failed to load resource: the server responded with a status of (\d{3})/;
// And these for a request its CORS check refused.
const corsError = /^Access to fetch at '([^']+)' from origin '[^']+' has been blocked by CORS policy/;
const networkFailure = /^Failed to load resource: net::ERR_FAILED$/;

export function watchPage(page: Page): PageWatch {
  const pending: ExpectedErrorResponse[] = [];
  const pendingBlocked: ExpectedBlockedRequest[] = [];
  // Each URL with the statuses announced for it (one URL may be refused twice, with two statuses).
  const expectedUrls = new Map<string, Set<number>>();
  const blockedUrls = new Set<string>();
  const problems: string[] = [];
  const consoleResourceErrors: Array<{ url: string; status: number; text: string }> = [];
  const consoleBlockedErrors: Array<{ url: string; text: string }> = [];

  page.on('response', (response) => {
    if (response.status() < 400) return;
    const request = response.request();
    const url = new URL(response.url());
    const index = pending.findIndex(
      (expected) => expected.method === request.method() && expected.path === url.pathname && expected.status === response.status(),
    );
    if (index === -1) {
      problems.push(`unexpected ${response.status()} answer to ${request.method()} ${response.url()}`);
      return;
    }
    pending.splice(index, 1);
    expectedUrls.set(response.url(), (expectedUrls.get(response.url()) ?? new Set()).add(response.status()));
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const status = resourceError.exec(text);
    const blocked = corsError.exec(text);
    if (status) consoleResourceErrors.push({ url: message.location().url, status: Number(status[1]), text });
    else if (blocked) consoleBlockedErrors.push({ url: blocked[1]!, text });
    else if (networkFailure.test(text)) consoleBlockedErrors.push({ url: message.location().url, text });
    else problems.push(`console error: ${text} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const path = new URL(request.url()).pathname;
    const index = pendingBlocked.findIndex((expected) => expected.method === request.method() && expected.path === path);
    if (index === -1) {
      problems.push(`request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'unknown'}`);
      return;
    }
    pendingBlocked.splice(index, 1);
    blockedUrls.add(request.url());
  });

  return {
    expectErrorResponse(expected) {
      pending.push(expected);
    },
    expectBlockedRequest(expected) {
      pendingBlocked.push(expected);
    },
    unexpected() {
      const lines = [...problems];
      // The console line of an announced error answer is part of that answer, not a problem.
      for (const entry of consoleResourceErrors) {
        if (!expectedUrls.get(entry.url)?.has(entry.status)) lines.push(`console error: ${entry.text} (${entry.url})`);
      }
      for (const entry of consoleBlockedErrors) {
        if (!blockedUrls.has(entry.url)) lines.push(`console error: ${entry.text} (${entry.url})`);
      }
      for (const expected of pending) lines.push(`expected ${expected.status} answer to ${expected.method} ${expected.path} never came`);
      for (const expected of pendingBlocked) lines.push(`expected ${expected.method} ${expected.path} to be refused by CORS; it was not`);
      return lines;
    },
  };
}
