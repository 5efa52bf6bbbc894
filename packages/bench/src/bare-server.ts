// The cost of Node alone: node:http + a pg pool answering the search (and getInvoice) with the
// service's SQL and envelope, and nothing else (no express, no validation, no token check, no logging). Run as its own
// process (like the service) so it gets a core of its own; prints the same "listening" line.
// BARE_FRAMEWORK=express mounts the same two handlers as the only routes of an express 5 app with no
// middleware: the architecture mandates express, so what it costs alone is the floor under the service.
// BARE_DUTIES (express only) puts a rung of the service's own duties in front of them (bare-duties.ts).
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { InvoiceSearchRequest } from '@invoice-api/contract';
import { benchAccountId } from './scenarios.js';
import { serviceGetInvoiceStatement, serviceSearchStatements } from './service-sql.js';
import { typeParsers } from './server-query-modules.js';
import type { AnswerCheck } from './bare-duties.js';

const url = process.env['DATABASE_URL'];
if (url === undefined) throw new Error('DATABASE_URL is required');

const pool = new pg.Pool({
  connectionString: url,
  max: Number(process.env['POOL_SIZE'] ?? 10),
  options: '-c TimeZone=UTC',
  types: {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      typeParsers[oid] ?? pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
  },
});

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** With the `answers checked` rung of BARE_DUTIES: the service's check of every answer against the spec. */
let checkAnswer: AnswerCheck | undefined;

function send(response: ServerResponse, status: number, body: unknown, operationId?: 'searchInvoices' | 'getInvoice'): void {
  if (operationId !== undefined) checkAnswer?.(operationId, status, body);
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/**
 * The service's statements for each request seen (by body, or by invoice id), captured once: Node alone
 * runs SQL, it does not build it. Capturing per request would charge the bare handler the cost of the
 * service's work before its SQL (parsing the search, binding its statements, and building any shape
 * the first time). A benchmark sends a handful of distinct requests; the bound only guards against a
 * caller sending more.
 */
function capturedOnce<Key, Captured>(capture: (key: Key) => Promise<Captured>): (key: Key) => Promise<Captured> {
  const kept = new Map<Key, Captured>();
  const keptAtMost = 100;
  return async (key) => {
    const known = kept.get(key);
    if (known !== undefined) return known;
    const captured = await capture(key);
    if (kept.size >= keptAtMost) kept.clear();
    kept.set(key, captured);
    return captured;
  };
}

const searchStatementsFor = capturedOnce((text: string) =>
  serviceSearchStatements(benchAccountId, (text === '' ? {} : JSON.parse(text)) as InvoiceSearchRequest),
);
const getInvoiceStatementFor = capturedOnce((invoiceId: number) => serviceGetInvoiceStatement(benchAccountId, invoiceId));

/** A request whose body a duty (express.json()) may have read and parsed already. */
type MaybeParsed = IncomingMessage & { body?: unknown };

async function search(request: MaybeParsed, response: ServerResponse): Promise<void> {
  let text: string;
  if (request.body === undefined) {
    text = await readBody(request);
    // Parsed as every request's body is, whether or not its statements were captured before.
    JSON.parse(text === '' ? '{}' : text);
  } else {
    // Parsed by a duty in front: its text only names the captured statements.
    text = JSON.stringify(request.body);
  }
  const statements = await searchStatementsFor(text);
  // As the service runs them: the page with its total in one statement (the total alone when the page
  // has no row), or page and count at once on two pool connections.
  let rows: Array<Record<string, unknown>>;
  let total: number;
  if (statements.pageCarriesTotal) {
    ({ rows } = await pool.query<Record<string, unknown>>(statements.page.text, statements.page.values));
    total =
      rows.length > 0
        ? Number(rows[0]?.['total'])
        : ((await pool.query<{ total: number }>(statements.count.text, statements.count.values)).rows[0]?.total ?? 0);
  } else {
    const [page, count] = await Promise.all([
      pool.query<Record<string, unknown>>(statements.page.text, statements.page.values),
      pool.query<{ total: number }>(statements.count.text, statements.count.values),
    ]);
    rows = page.rows;
    total = count.rows[0]?.total ?? 0;
  }
  send(
    response,
    200,
    {
      data: rows.map(({ total: _total, version: _version, ...row }) => ({ ...row, amount: Number(row['amount']) })),
      pagination: { total, limit: statements.limit, offset: statements.offset, has_more: statements.offset + rows.length < total },
    },
    'searchInvoices',
  );
}

async function getInvoice(invoiceId: number, response: ServerResponse): Promise<void> {
  const statement = await getInvoiceStatementFor(invoiceId);
  const result = await pool.query<Record<string, unknown>>(statement.text, statement.values);
  const row = result.rows[0];
  if (row === undefined) {
    send(response, 404, { error: 'not_found', message: `Invoice ${invoiceId} does not exist.` }, 'getInvoice');
    return;
  }
  const { version: _version, ...invoice } = row;
  send(response, 200, { invoice: { ...invoice, amount: Number(row['amount']) } }, 'getInvoice');
}

const invoicePath = /^\/api\/v1\/invoices\/(\d+)$/;

const failed = (response: ServerResponse) => (error: unknown) => send(response, 500, { error: 'internal_error', message: String(error) });

function notServed(response: ServerResponse): void {
  send(response, 404, { error: 'not_found', message: 'Only the search and getInvoice are served here.' });
}

/** node:http: the two routes matched by hand. */
const nodeListener: RequestListener = (request, response) => {
  const invoiceId = request.method === 'GET' ? invoicePath.exec(request.url ?? '')?.[1] : undefined;
  if (request.method === 'POST' && request.url === '/api/v1/invoices/search') {
    search(request, response).catch(failed(response));
  } else if (invoiceId !== undefined) {
    getInvoice(Number(invoiceId), response).catch(failed(response));
  } else {
    notServed(response);
  }
};

/**
 * express 5 with the same handlers and nothing in front of them: no body parser (search reads the body
 * itself), no ETag, no X-Powered-By. Imported only here, so that the node:http variant loads no express.
 */
async function expressListener(): Promise<RequestListener> {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const rung = process.env['BARE_DUTIES'];
  if (rung !== undefined && rung !== '') {
    const { dutiesOf, answerCheckOf, isDutyRung, dutyRungs } = await import('./bare-duties.js');
    if (!isDutyRung(rung)) throw new Error(`BARE_DUTIES is one of ${dutyRungs.join(', ')}, not ${rung}`);
    app.use(await dutiesOf(rung, pool));
    checkAnswer = answerCheckOf(rung);
  }
  // The handlers answer their own failures, as on node:http: express's error page is never reached.
  app.post('/api/v1/invoices/search', (request, response) => {
    search(request, response).catch(failed(response));
  });
  app.get('/api/v1/invoices/:id', (request, response) => {
    // Express 5's paths take no pattern: the digits check node:http's route makes, done here.
    if (!/^\d+$/.test(request.params.id)) notServed(response);
    else getInvoice(Number(request.params.id), response).catch(failed(response));
  });
  return app;
}

const framework = process.env['BARE_FRAMEWORK'] ?? 'node:http';
if (framework !== 'node:http' && framework !== 'express') throw new Error(`BARE_FRAMEWORK is node:http (the default) or express, not ${framework}`);
if (framework !== 'express' && (process.env['BARE_DUTIES'] ?? '') !== '') throw new Error('BARE_DUTIES needs BARE_FRAMEWORK=express');
const server = createServer(framework === 'express' ? await expressListener() : nodeListener);

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}` }));
});

process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
