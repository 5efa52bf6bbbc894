// The deep page read by cursor: the page at position N (900,000 of 1M), asked for with the
// `next_cursor` of the page before it, through the service, against the naive OFFSET plan for the
// same page. The cursor's keyset walks the (account_id, created_at, id) index from the cursor on, so
// its cost does not grow with N. The exact `total` comes two ways, and each has its row: while the
// account's invoices are unchanged the service answers the total the cursor carries without counting;
// after a write to them (the account's invoices_version moved) every request with that cursor counts
// the whole result again.
import pg from 'pg';
import type { Measure } from './figures.js';
import { send } from './http-request.js';
import type { LatencyComparison } from './report.js';
import { benchAccountId } from './scenarios.js';
import { singleClientP50 } from './search-bench.js';

/** The target: the page by cursor at most 0.30x the naive OFFSET plan. */
export const cursorDeepPageMaxRatio = 0.3;

const pageSize = 50;
const searchPath = '/api/v1/invoices/search';

interface SearchAnswer {
  status: number;
  total: number | undefined;
  nextCursor: string | undefined;
  text: string;
}

export async function search(serviceUrl: string, token: string, body: unknown): Promise<SearchAnswer> {
  const { status, text } = await send(new URL(searchPath, serviceUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: 120_000,
  });
  const page = JSON.parse(text) as { pagination?: { next_cursor?: string; total?: number } };
  return { status, total: page.pagination?.total, nextCursor: page.pagination?.next_cursor, text };
}

interface CursorAt {
  cursor: string;
  /** The total the page that made the cursor answered (and the cursor carries). */
  total: number;
}

/** The `next_cursor` that points at `position`: the one answered by the page that ends there. */
export async function cursorAt(serviceUrl: string, token: string, position: number): Promise<CursorAt> {
  const page = await search(serviceUrl, token, { offset: Math.max(0, position - pageSize), limit: Math.min(pageSize, position) });
  if (page.status !== 200 || page.nextCursor === undefined || page.total === undefined)
    throw new Error(`No cursor at position ${position}: ${page.status} ${page.text.slice(0, 300)}`);
  return { cursor: page.nextCursor, total: page.total };
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The bench account's invoices_version: equal before and after a measurement means no invoice write in between. */
export function invoicesVersion(databaseUrl: string): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ version: string }>('select invoices_version::text as version from accounts where id = $1', [benchAccountId]);
    const version = rows[0]?.version;
    if (version === undefined) throw new Error('The bench account is missing');
    return version;
  });
}

/**
 * A new invoice of the bench account, a copy of its oldest one under a number of its own, through SQL:
 * the write moves the account's invoices_version and adds one to the unfiltered total. The data set's
 * reuse removes it before the next run (prepare.ts undoes every invoice above the loaded ids).
 */
function writeInvoice(databaseUrl: string): Promise<void> {
  return withClient(databaseUrl, async (client) => {
    const { rowCount } = await client.query(
      `insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date, description)
       select account_id, 'CURSOR-' || gen_random_uuid(), client_id, client_name, amount, currency, status, due_date, description
       from invoices where account_id = $1 order by id limit 1`,
      [benchAccountId],
    );
    if (rowCount !== 1) throw new Error('Could not write an invoice of the bench account');
  });
}

export interface CursorDeepPageOptions {
  serviceUrl: string;
  token: string;
  /** The benchmark database, to write an invoice and to read the account's invoices_version. */
  databaseUrl: string;
  position: number;
  measure: Measure;
  /** The naive OFFSET plan's median for the same page, measured by the caller the same way as the offset row. */
  naiveP50: number;
}

/**
 * Two single-client medians for the page at `position` by cursor, each against the naive OFFSET plan:
 * with a cursor the service itself returned and no write since (the total the cursor carries is
 * answered: checked by the account's invoices_version, unchanged over the measurement), and with that
 * cursor after an invoice of the account was written (every request counts again: checked by the
 * answered total, one more than the cursor's, which only a count gives).
 */
export async function cursorDeepPages(options: CursorDeepPageOptions): Promise<LatencyComparison[]> {
  const positionText = options.position.toLocaleString('en-US');
  const versionBefore = await invoicesVersion(options.databaseUrl);
  const unchanged = await cursorAt(options.serviceUrl, options.token, options.position);
  const unchangedP50 = await singleClientP50(options.serviceUrl, options.token, { cursor: unchanged.cursor, limit: pageSize }, options.measure);
  const versionAfter = await invoicesVersion(options.databaseUrl);
  if (versionAfter !== versionBefore)
    throw new Error(`The bench account's invoices changed while the cursor page was measured (${versionBefore} -> ${versionAfter})`);

  const stale = await cursorAt(options.serviceUrl, options.token, options.position);
  // Once written, the account's version never returns to the cursor's: every request below recounts.
  await writeInvoice(options.databaseUrl);
  const afterWriteP50 = await singleClientP50(options.serviceUrl, options.token, { cursor: stale.cursor, limit: pageSize }, options.measure);
  const check = await search(options.serviceUrl, options.token, { cursor: stale.cursor, limit: pageSize });
  if (check.total !== stale.total + 1) throw new Error(`The page by cursor after a write answered total ${check.total}, not the recounted ${stale.total + 1}`);

  return [
    {
      name: `deep page by cursor (position ${positionText})`,
      serviceP50: unchangedP50,
      reference: 'the naive OFFSET plan',
      referenceP50: options.naiveP50,
      maxRatio: cursorDeepPageMaxRatio,
    },
    {
      name: `deep page by cursor after a write (position ${positionText}, total recounted)`,
      serviceP50: afterWriteP50,
      reference: 'the naive OFFSET plan',
      referenceP50: options.naiveP50,
      maxRatio: undefined,
    },
  ];
}
