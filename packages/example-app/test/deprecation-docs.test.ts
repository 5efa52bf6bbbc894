// What /docs shows of a deprecation, in a real browser. The real spec deprecates nothing, so a scratch
// copy of the bundled spec deprecates an operation, a query parameter and a request property; it goes
// through the same steps as the service's /docs (scripts/lib/published-spec.mjs, then renderDocsHtml
// with Redoc inlined) and the page is opened from disk in Chromium. The service serves the page that
// renderDocsHtml makes of the generated published spec; rendering the scratch one instead needs no
// second generate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '@invoice-api/contract';
import { renderDocsHtml } from '@invoice-api/contract/docs';
import { publishedSpec } from '../../../scripts/lib/published-spec.mjs';
import { launchChromium, screenshot, watchPage } from './browser.js';

type Spec = ReturnType<typeof loadSpec>;

function node(spec: Spec, ...keys: string[]): Record<string, unknown> {
  let current: unknown = spec;
  for (const key of keys) current = (current as Record<string, unknown>)[key];
  if (typeof current !== 'object' || current === null) throw new Error(`no ${keys.join('.')} in the spec`);
  return current as Record<string, unknown>;
}

function deprecatingSpec(): Spec {
  const spec = structuredClone(loadSpec());
  Object.assign(node(spec, 'paths', '/api/v1/users', 'get'), { deprecated: true, 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-06-30' });
  Object.assign(node(spec, 'components', 'parameters', 'offset'), { deprecated: true, 'x-deprecated-since': '2026-10-01', 'x-sunset': '2027-03-31' });
  Object.assign(node(spec, 'components', 'schemas', 'InvoiceSearchRequest', 'properties', 'offset'), {
    deprecated: true,
    'x-deprecated-since': '2026-12-01',
    'x-sunset': '2027-09-30',
  });
  return spec;
}

let browser: Browser;
let workDir: string;
let page: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'deprecation-docs-'));
  page = join(workDir, 'docs.html');
  writeFileSync(page, renderDocsHtml(publishedSpec(deprecatingSpec())));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('a deprecation in the API reference (Chromium)', () => {
  it('shows the operation as deprecated with its sunset, and the deprecated parameter and property with theirs', async () => {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const watch = watchPage(tab);
    try {
      await tab.goto(pathToFileURL(page).href);
      const sectionText = async (operationId: string) => {
        const section = tab.locator(`[id="operation/${operationId}"]`);
        // An upper bound, not a wait: Redoc parses the whole spec in the page first (seconds when idle).
        await section.locator('h2').waitFor({ timeout: 120_000 });
        return section.innerText();
      };
      const users = await sectionText('listUsers');
      // Redoc's badge for `deprecated: true`, and the dates the published spec appended.
      expect(users).toMatch(/Deprecated/);
      expect(users).toContain('Deprecated since 2026-11-01. Sunset: 2027-06-30: it may be removed from that day on');
      const deliveries = await sectionText('listDeliveries');
      expect(deliveries).toContain('Deprecated since 2026-10-01. Sunset: 2027-03-31');
      const search = await sectionText('searchInvoices');
      expect(search).toContain('Deprecated since 2026-12-01. Sunset: 2027-09-30');
      // An operation with nothing deprecated says nothing of it.
      expect(await sectionText('getInvoice')).not.toContain('Sunset');
      // The menu marks the deprecated operation (Redoc strikes its label through).
      const decoration = await tab
        .locator('[role="menuitem"][data-item-id$="/operation/listUsers"]')
        .first()
        .evaluate((item) => [...item.querySelectorAll('*')].map((element) => getComputedStyle(element).textDecorationLine).join(' '));
      expect(decoration).toContain('line-through');
      await screenshot(tab.locator('[id="operation/listUsers"]'), 'reference-deprecation');
      expect(watch.unexpected()).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
