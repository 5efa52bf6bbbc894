// Debian's Chromium driven by playwright-core, and a watch over a page that turns every console error,
// page error, failed request and error response the scenario did not announce into a test failure.
// Nothing here downloads a browser: scripts/ensure-browser.sh installs Debian's `chromium` package.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

export interface ExpectedErrorResponse {
  method: string;
  /** The URL's path, e.g. `/api/v1/invoices/search`. */
  path: string;
  status: number;
}

export interface PageWatch {
  /** Announces one error response the scenario provokes on purpose (and the console line it causes). */
  expectErrorResponse(expected: ExpectedErrorResponse): void;
  /** Everything that went wrong without being announced, as readable lines; empty when all is well. */
  unexpected(): string[];
}

// Chromium logs every 4xx/5xx answer a page fetched as a console error of this form.
const resourceError = /^Failed to load resource: the server responded with a status of (\d{3})/;

export function watchPage(page: Page): PageWatch {
  const pending: ExpectedErrorResponse[] = [];
  const expectedUrls = new Map<string, number>();
  const problems: string[] = [];
  const consoleResourceErrors: Array<{ url: string; status: number; text: string }> = [];

  page.on('response', (response) => {
    if (response.status() < 400) return;
    const request = response.request();
    const url = new URL(response.url());
    const index = pending.findIndex((expected) => expected.method === request.method() && expected.path === url.pathname && expected.status === response.status());
    if (index === -1) {
      problems.push(`unexpected ${response.status()} answer to ${request.method()} ${response.url()}`);
      return;
    }
    pending.splice(index, 1);
    expectedUrls.set(response.url(), response.status());
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = resourceError.exec(message.text());
    if (status) consoleResourceErrors.push({ url: message.location().url, status: Number(status[1]), text: message.text() });
    else problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'unknown'}`));

  return {
    expectErrorResponse(expected) {
      pending.push(expected);
    },
    unexpected() {
      const lines = [...problems];
      // The console line of an announced error answer is part of that answer, not a problem.
      for (const entry of consoleResourceErrors) {
        if (expectedUrls.get(entry.url) !== entry.status) lines.push(`console error: ${entry.text} (${entry.url})`);
      }
      for (const expected of pending) lines.push(`expected ${expected.status} answer to ${expected.method} ${expected.path} never came`);
      return lines;
    },
  };
}
