// The deep page read by cursor: the page at position N (900,000 of 1M), asked for with the
// `next_cursor` of the page before it, through the service, against the naive OFFSET plan for the
// same page. The cursor's keyset walks the (account_id, created_at, id) index from the cursor on, so
// its cost does not grow with N; the service still counts the whole result for the exact `total`.
import type { Measure } from './figures.js';
import type { LatencyComparison } from './report.js';
import { searchOnce } from './search-bench.js';

/** The target: the page by cursor at most 0.30x the naive OFFSET plan. */
export const cursorDeepPageMaxRatio = 0.3;

const pageSize = 50;

/** The `next_cursor` that points at `position`: the one answered by the page that ends there. */
export async function cursorAt(serviceUrl: string, token: string, position: number): Promise<string> {
  const response = await fetch(new URL('/api/v1/invoices/search', serviceUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ offset: Math.max(0, position - pageSize), limit: Math.min(pageSize, position) }),
    signal: AbortSignal.timeout(120_000),
  });
  const page = (await response.json()) as { pagination?: { next_cursor?: string; offset?: number } };
  const cursor = page.pagination?.next_cursor;
  if (response.status !== 200 || cursor === undefined)
    throw new Error(`No cursor at position ${position}: ${response.status} ${JSON.stringify(page).slice(0, 300)}`);
  return cursor;
}

/**
 * The service's single-client median for the page at `position` by cursor, compared with the naive
 * OFFSET plan's median for the same page (measured by the caller, the same way as the offset row).
 */
export async function cursorDeepPage(serviceUrl: string, token: string, position: number, measure: Measure, naiveP50: number): Promise<LatencyComparison> {
  const cursor = await cursorAt(serviceUrl, token, position);
  const body = { cursor, limit: pageSize };
  // Warm: the first requests plan and cache what the measured ones reuse, as for every other row.
  await searchOnce(serviceUrl, token, body, 1, { requests: 3 });
  const figures = await searchOnce(serviceUrl, token, body, 1, measure);
  if (figures.errors > 0) throw new Error(`${figures.errors} of the cursor page's requests failed`);
  return {
    name: `deep page by cursor (position ${position.toLocaleString('en-US')})`,
    serviceP50: figures.p50,
    reference: 'the naive OFFSET plan',
    referenceP50: naiveP50,
    maxRatio: cursorDeepPageMaxRatio,
  };
}
