// The API reference in a real browser: the service's /docs and the generated docs.html opened from
// disk must list and render every operation of the spec, with no console error, no failed request.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable, publishedSpecPath } from '@invoice-api/contract';
import { startService, type RunningService } from '@invoice-api/contract-tests/service';
import { repoRoot } from '../../../scripts/lib/prism.mjs';
import { launchChromium, screenshot, watchPage } from './browser.js';

const operations = Object.values(operationTable);

/** The names of the links of each operation's 200 and 201 answers (the ones Redoc shows expanded). */
function linkNamesByOperation(): Map<string, string[]> {
  const spec = JSON.parse(readFileSync(publishedSpecPath, 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { links?: Record<string, unknown> }> }>>;
  };
  const names = new Map<string, string[]>();
  for (const operation of Object.values(spec.paths).flatMap((item) => Object.values(item))) {
    const links = ['200', '201'].flatMap((status) => Object.keys(operation.responses?.[status]?.links ?? {}));
    if (operation.operationId !== undefined && links.length > 0) names.set(operation.operationId, links);
  }
  return names;
}
const docsFile = join(repoRoot, 'packages/contract/generated/docs.html');

let browser: Browser;
let service: RunningService;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'reference-docs-'));
  // What `pnpm run docs` does; the generator is a no-op when the spec did not change.
  for (const script of ['scripts/generate.mjs', 'scripts/docs.mjs']) {
    const run = spawnSync(process.execPath, [join(repoRoot, script)], { cwd: repoRoot, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${script} failed:\n${run.stdout}\n${run.stderr}`);
  }
  [browser, service] = await Promise.all([launchChromium(), startService({ keyFile: join(workDir, 'dev-key.json') })]);
});

afterAll(async () => {
  await Promise.allSettled([browser?.close(), service?.stop()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** What Redoc shows for each operation: its entry in the side menu and its section in the middle. */
async function renderedOperations(page: Page) {
  // Redoc renders after parsing the spec; every section exists once the last one does. The timeout is an
  // upper bound, not a wait (seconds when idle, far more on a saturated machine).
  await page.waitForFunction((count) => document.querySelectorAll('[id^="operation/"] h2').length >= count, operations.length, { timeout: 120_000 });
  return page.evaluate(() => ({
    menu: [...document.querySelectorAll('[role="menuitem"][data-item-id*="/operation/"]')].map((item) => ({
      operationId: item.getAttribute('data-item-id')?.replace(/^.*\/operation\//, ''),
      label: item.getAttribute('aria-label'),
    })),
    sections: [...document.querySelectorAll('[id^="operation/"]')].map((section) => ({
      operationId: section.id.replace(/^operation\//, ''),
      heading: section.querySelector('h2')?.textContent?.trim(),
      text: section.textContent ?? '',
    })),
  }));
}

async function checkReference(url: string, screenshotName: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const watch = watchPage(page);
  try {
    await page.goto(url);
    const { menu, sections } = await renderedOperations(page);
    await screenshot(page, screenshotName, 'screen');
    for (const operation of operations) {
      expect(menu, `side menu entry of ${operation.operationId}`).toContainEqual({ operationId: operation.operationId, label: operation.summary });
      const section = sections.find((candidate) => candidate.operationId === operation.operationId);
      expect(section?.heading, `section heading of ${operation.operationId}`).toBe(operation.summary);
      // The request panel names the method and the path, so the section is drawn, not just a title.
      expect(section?.text, `path of ${operation.operationId}`).toContain(operation.path);
    }
    expect(menu).toHaveLength(operations.length);
    // Redoc draws no `links`; the published spec states them in the response's description, and the
    // page must show that text.
    const linkNames = linkNamesByOperation();
    expect(linkNames.get('createInvoice')).toEqual([
      'GetCreatedInvoice',
      'UpdateCreatedInvoice',
      'ReadCreatedInvoicePdf',
      'ListCreatedInvoiceAttachments',
      'AttachToCreatedInvoice',
    ]);
    for (const [operationId, names] of linkNames) {
      const text = sections.find((candidate) => candidate.operationId === operationId)?.text ?? '';
      for (const name of names) expect(text, `link ${name} of ${operationId}`).toContain(name);
    }
    expect(watch.unexpected()).toEqual([]);
  } finally {
    await page.close();
  }
}

describe('the API reference in Chromium', () => {
  it('the service serves /docs with every operation listed and rendered, and no console error', async () => {
    await checkReference(new URL('/docs', service.url).href, 'reference-service-docs');
  });

  it('docs.html opens from disk with every operation listed and rendered, and no console error', async () => {
    await checkReference(pathToFileURL(docsFile).href, 'reference-docs-html');
  });
});
