// The CSV export through real HTTP on both engines: the header and column order, every invoice of the
// account and no other's, the search's criteria and order (compared with the search's own pages), the
// amounts' decimals, RFC 4180 quoting, the neutralisation of text cells a spreadsheet would run, the
// CSV parsed back equal to the JSON invoices; the search's 400s, 415, 403 and the export's own rate
// limit; an export of many batches whole and in order; and a client that leaves after the first chunk:
// no further batch is read (counted statements, not timing) and the connection is free again.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Invoice } from '@invoice-api/contract';
import { parse } from 'csv-parse/sync';
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { exportBatchSize } from '../../src/export/invoice-csv.js';
import { attachmentDisposition } from '../../src/http/content-disposition.js';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { accountCalls } from '../http/support/account-calls.js';
import { capturingLogger, startTestService, token, type TestService } from '../http/support/service.js';

const header = 'id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description';
const columns = header.split(',') as Array<keyof Invoice>;
const textColumns = new Set(['invoice_number', 'client_name', 'description']);
const formulaStarts = ['=', '+', '-', '@', '\t', '\r'];

/** The export's batch statements are the ones that write timestamps with to_char (export/invoice-csv.ts). */
const isExportBatch = (query: CompiledQuery) => query.sql.includes('"T"HH24:MI:SS.MS"Z"');

/** Counts the export's batch statements as the service starts and finishes them. */
interface StatementCount {
  started: number;
  finished: number;
}

/** `database` with every export batch statement counted; everything else passes through unchanged. */
function countingDatabase(database: Database, count: StatementCount): Database {
  return {
    ...database,
    async eachRow(query, onRow) {
      const counted = isExportBatch(query);
      if (counted) count.started += 1;
      try {
        return await database.eachRow(query, onRow);
      } finally {
        if (counted) count.finished += 1;
      }
    },
  };
}

/** What the export writes for an invoice the JSON answer shows: text cells neutralised, amounts with two decimals. */
function expectedRecord(invoice: Invoice): string[] {
  return columns.map((column) => {
    const value = invoice[column];
    if (column === 'amount') return (value as number).toFixed(2);
    const text = String(value);
    return textColumns.has(column) && formulaStarts.some((start) => text.startsWith(start)) ? `'${text}` : text;
  });
}

const records = (csv: string): string[][] => parse(csv, { relax_quotes: false, record_delimiter: '\r\n' }) as string[][];

describe.each(engines)('exportInvoices on %s', (engine) => {
  const base = useTestDatabase(engine, { name: 'invoice_export' });
  const statements: StatementCount = { started: 0, finished: 0 };
  const { logger, lines } = capturingLogger();
  let service: TestService;
  let account: TestAccount;
  let other: TestAccount;
  let large: TestAccount;
  let formulas: TestAccount;
  let bearer: string;
  let largeBearer: string;

  const insert = (owner: TestAccount, rows: Array<Partial<Record<string, string | number>>>) =>
    base()
      .db.insertInto('invoices')
      .values(
        rows.map((row, index) => ({
          account_id: owner.accountId,
          invoice_number: `T-${randomUUID()}`,
          client_id: owner.clientIds[index % owner.clientIds.length] as number,
          client_name: 'Client',
          amount: '10.00',
          currency: 'CHF',
          status: 'draft' as const,
          due_date: '2026-12-31',
          description: '',
          ...row,
        })),
      )
      .execute();

  beforeAll(async () => {
    const database = base();
    account = await createAccount(database, { clients: 3 });
    other = await createAccount(database, { clients: 1 });
    formulas = await createAccount(database, { clients: 1 });
    large = await createAccount(database, { clients: 2 });
    const statuses = ['draft', 'sent', 'paid', 'overdue', 'cancelled'];
    const currencies = ['CHF', 'EUR', 'USD'];
    await insert(
      account,
      Array.from({ length: 40 }, (_, index) => ({
        client_name: ['Acme GmbH', 'Beta AG', 'Zeta & Co'][index % 3],
        amount: `${(index * 37.5 + 0.1).toFixed(2)}`,
        currency: currencies[index % 3],
        status: statuses[index % 5],
        due_date: `2026-${String((index % 12) + 1).padStart(2, '0')}-15`,
        description: `Work item ${index}`,
      })),
    );
    await insert(account, [
      { client_name: 'Acme GmbH', amount: '1250.00', description: 'Consulting, "March"\r\nsecond line, ünïcødé € 日本' },
      { amount: '0.10', description: 'ten cents' },
      { amount: '999999999999.99', description: 'the largest amount' },
      { amount: '0.00', description: '12' },
      ...formulaStarts.map((start, index) => ({
        invoice_number: `F-${index}`,
        client_name: `${start}client ${index}`,
        description: `${start}SUM(A1:A9) ${index}`,
      })),
      { invoice_number: 'N-7', client_name: 'Dash-in-the-middle', description: 'a - b = c' },
      { client_name: 'Smith, Jones & "Sons"', description: 'line feed\nonly' },
      { client_name: 'Tab\tinside', description: 'carriage return\ronly' },
    ]);
    // The API's invoice numbers start with a letter or digit; one written to the table directly (an
    // import) is neutralised all the same. Not searched: the search's answer check would refuse it.
    await insert(
      formulas,
      formulaStarts.map((start, index) => ({ invoice_number: `${start}N${index}` })),
    );
    await insert(other, [{ description: 'another account' }, { description: 'another account too' }]);
    // More rows than several batches: ~1 KB each, and seven rows per timestamp, so batches end inside ties.
    const total = 6 * exportBatchSize;
    await sql`insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date, description, created_at, updated_at)
      select ${large.accountId}, 'L-' || g, ${large.clientIds[0]}, 'Large client', (g % 1000) + 0.25, 'EUR', 'sent', date '2026-01-01' + (g % 300),
        repeat(chr(97 + g % 26), 900 + g % 100), timestamptz '2026-01-01 00:00:00+00' + (g / 7) * interval '1 minute', timestamptz '2026-02-01 00:00:00+00'
      from generate_series(1, ${total}) as g`.execute(database.db);
    bearer = await token({ accountId: account.accountId, clientId: `export-${randomUUID()}` });
    largeBearer = await token({ accountId: large.accountId, clientId: `export-${randomUUID()}` });
    service = await startTestService({
      database: countingDatabase(database, statements),
      handlers: createHandlers(),
      logger,
      env: {
        RATE_LIMIT_EXPORT_PER_MINUTE: '1000',
        RATE_LIMIT_EXPORT_PER_HOUR: '1000',
        RATE_LIMIT_SEARCH_PER_MINUTE: '10000',
        RATE_LIMIT_SEARCH_PER_HOUR: '10000',
      },
    });
  }, 120_000);
  afterAll(() => service?.close());

  const { call } = accountCalls(
    () => service.url,
    () => bearer,
    () => account,
  );
  const exportCsv = async (body?: unknown, as?: string) => {
    const response = await call('POST', '/api/v1/invoices/export', body, {}, as);
    expect(response.status).toBe(200);
    return response.text();
  };
  /** Every invoice the search finds for `body`, all pages by cursor. */
  const searchAll = async (body: Record<string, unknown>): Promise<Invoice[]> => {
    const found: Invoice[] = [];
    let cursor: string | undefined;
    do {
      const response = await call('POST', '/api/v1/invoices/search', { ...body, limit: 7, ...(cursor === undefined ? {} : { cursor }) });
      expect(response.status).toBe(200);
      const page = (await response.json()) as { data: Invoice[]; pagination: { next_cursor?: string } };
      found.push(...page.data);
      cursor = page.pagination.next_cursor;
    } while (cursor !== undefined);
    return found;
  };

  it('answers CSV with the header line, the columns in the spec order, and every invoice of the account as the JSON shows it', async () => {
    const response = await call('POST', '/api/v1/invoices/export', {});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(attachmentDisposition('invoices.csv'));
    const csv = await response.text();
    expect(csv.startsWith(`${header}\r\n`)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    const [head, ...rows] = records(csv);
    expect(head).toEqual(columns);
    const invoices = await searchAll({});
    expect(invoices).toHaveLength(40 + 13);
    // Parsed back by a real CSV parser, the records are the JSON invoices, in the same order.
    expect(rows).toEqual(invoices.map(expectedRecord));
    expect(rows.some((row) => row[10]?.includes('another account'))).toBe(false);
  });

  it('keeps RFC 4180: a comma, quotes, CRLF and unicode in one quoted field; amounts with their two decimals', async () => {
    const csv = await exportCsv({ order_by: 'amount', order_direction: 'asc' });
    expect(csv).toContain(',1250.00,');
    expect(csv).toContain(',"Consulting, ""March""\r\nsecond line, ünïcødé € 日本"\r\n');
    const rows = records(csv).slice(1);
    expect(rows.map((row) => row[4])).toEqual(expect.arrayContaining(['0.00', '0.10', '1250.00', '999999999999.99', '37.60']));
    for (const row of rows) expect(row[4]).toMatch(/^\d+\.\d{2}$/);
    const numbers = rows.map((row) => Number(row[4]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('neutralises a text cell that starts with = + - @ tab or CR, and nothing else', async () => {
    const rows = records(await exportCsv({ order_by: 'id', order_direction: 'asc' })).slice(1);
    formulaStarts.forEach((start, index) => {
      const row = rows.find((candidate) => candidate[1] === `F-${index}`);
      expect(row, JSON.stringify(start)).toBeDefined();
      expect(row?.[3]).toBe(`'${start}client ${index}`);
      expect(row?.[10]).toBe(`'${start}SUM(A1:A9) ${index}`);
    });
    const imported = records(
      await exportCsv({ order_by: 'id', order_direction: 'asc' }, await token({ accountId: formulas.accountId, clientId: `export-${randomUUID()}` })),
    );
    expect(imported.slice(1).map((row) => row[1])).toEqual(formulaStarts.map((start, index) => `'${start}N${index}`));
    const plain = rows.find((row) => row[1] === 'N-7');
    expect(plain?.slice(3, 4).concat(plain?.[10] ?? '')).toEqual(['Dash-in-the-middle', 'a - b = c']);
    expect(rows.find((row) => row[10] === '12')?.[4]).toBe('0.00');
    // No number, date or code cell is ever prefixed.
    for (const row of rows) for (const index of [0, 2, 4, 5, 6, 7, 8, 9]) expect(row[index]?.startsWith("'")).toBe(false);
  });

  it.each([
    { criteria: [{ field: 'status', operator: 'in', value: ['paid', 'sent'] }], order_by: 'amount', order_direction: 'asc' },
    {
      criteria: [
        { field: 'amount', operator: '>=', value: 400 },
        { field: 'currency', operator: '!=', value: 'USD' },
      ],
      order_by: 'client_name',
      order_direction: 'desc',
    },
    { criteria: [{ field: 'description', operator: 'like', value: 'item 1' }], order_by: 'due_date' },
    { criteria: [{ field: 'due_date', operator: 'between', value: ['2026-03-01', '2026-08-31'] }], order_by: 'invoice_number', order_direction: 'asc' },
  ])('honours the criteria and order as the search does: %j', async (body) => {
    const rows = records(await exportCsv(body)).slice(1);
    const invoices = await searchAll(body);
    expect(invoices.length).toBeGreaterThan(0);
    expect(rows).toEqual(invoices.map(expectedRecord));
  });

  it('refuses an invalid criterion with the search 400, in the same words', async () => {
    const body = { criteria: [{ field: 'amount', operator: 'like', value: 'x' }] };
    const exported = await call('POST', '/api/v1/invoices/export', body);
    const searched = await call('POST', '/api/v1/invoices/search', body);
    expect(exported.status).toBe(400);
    const error = (await exported.json()) as { error: string; details?: { field: string } };
    expect(error).toEqual(await searched.json());
    expect(error.details?.field).toBe('amount');
    const reversed = { criteria: [{ field: 'amount', operator: 'between', value: [9, 1] }] };
    const exportedReversed = await call('POST', '/api/v1/invoices/export', reversed);
    expect(exportedReversed.status).toBe(400);
    expect(await exportedReversed.json()).toEqual(await (await call('POST', '/api/v1/invoices/search', reversed)).json());
  });

  it('refuses a page (limit) with 400, a body not in JSON with 415, and a token without invoices:read with 403', async () => {
    const limited = await call('POST', '/api/v1/invoices/export', { limit: 10 });
    expect(limited.status).toBe(400);
    expect(((await limited.json()) as { details?: { field: string } }).details?.field).toBe('limit');
    const text = await fetch(`${service.url}/api/v1/invoices/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { error: string }).error).toBe('unsupported_media_type');
    const writer = await token({ accountId: account.accountId, scopes: ['invoices:write'], clientId: `export-${randomUUID()}` });
    const forbidden = await call('POST', '/api/v1/invoices/export', {}, {}, writer);
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: string }).error).toBe('forbidden');
  });

  it('exports an empty result as the header line alone, and an absent body as every invoice', async () => {
    expect(await exportCsv({ criteria: [{ field: 'invoice_number', operator: '=', value: 'none such' }] })).toBe(`${header}\r\n`);
    const response = await fetch(`${service.url}/api/v1/invoices/export`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` } });
    expect(response.status).toBe(200);
    expect(records(await response.text())).toHaveLength(1 + 53);
  });

  it('sends an export of many batches whole and in order (keyset across ties)', async () => {
    const before = statements.started;
    const csv = await exportCsv({}, largeBearer);
    const ids = records(csv)
      .slice(1)
      .map((row) => Number(row[0]));
    const expected = await base()
      .db.selectFrom('invoices')
      .select('id')
      .where('account_id', '=', large.accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(ids).toEqual(expected.map((row) => row.id));
    // Six full batches, then one that finds nothing after the last.
    expect(statements.started - before).toBe(7);
  });

  it('stops reading batches when the client leaves after the first chunk, and frees the connection', async () => {
    const before = { ...statements };
    const requestId = `export-leaves-${randomUUID()}`;
    await new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(`${service.url}/api/v1/invoices/export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${largeBearer}`, 'content-type': 'application/json', 'x-request-id': requestId },
      });
      outgoing.on('error', () => undefined);
      outgoing.on('response', (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', () => {
          outgoing.destroy();
          resolve();
        });
      });
      outgoing.once('error', reject);
      outgoing.end('{}');
    });
    // The request's log line is written once its stream settled (logging.ts), then the batch in flight ends.
    await vi.waitFor(() => expect(lines().some((line) => line.requestId === requestId)).toBe(true), { timeout: 10_000 });
    await vi.waitFor(() => expect(statements.finished).toBe(statements.started), { timeout: 10_000 });
    const read = statements.started - before.started;
    expect(read).toBeGreaterThanOrEqual(1);
    // Six batches hold the account: the one the handler read, the one read ahead, and one more the sockets' buffers took at most.
    expect(read).toBeLessThanOrEqual(3);
    // The connection is free: another request is answered, and nothing of the export runs any more.
    const after = await call('GET', `/api/v1/invoices/${(await searchAll({}))[0]?.id}`);
    expect(after.status).toBe(200);
    expect(statements.started - before.started).toBe(read);
    if (engine === 'postgres') {
      const running = await sql<{ running: number }>`select count(*)::int as running from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query like '%HH24:MI:SS.MS%'`.execute(base().db);
      expect(running.rows[0]?.running).toBe(0);
    }
  });

  describe('its own rate limit', () => {
    let limited: TestService;
    beforeAll(async () => {
      limited = await startTestService({ database: base(), handlers: createHandlers(), env: { RATE_LIMIT_EXPORT_PER_MINUTE: '2' } });
    });
    afterAll(() => limited?.close());

    it('refuses the third export in a minute with 429, while other reads of the same key pass', async () => {
      const key = await token({ accountId: account.accountId, clientId: `export-limit-${randomUUID()}` });
      const exportOnce = () =>
        fetch(`${limited.url}/api/v1/invoices/export`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: '{}',
        });
      const [first, second] = [await exportOnce(), await exportOnce()];
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.headers.get('ratelimit-policy')).toContain('q=2');
      await Promise.all([first.text(), second.text()]);
      const third = await exportOnce();
      expect(third.status).toBe(429);
      expect(((await third.json()) as { error: string }).error).toBe('rate_limited');
      const id = (await searchAll({}))[0]?.id;
      const read = await fetch(`${limited.url}/api/v1/invoices/${id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(read.status).toBe(200);
    });
  });
});
