// Traces of the service as it runs in production: started as a process with the telemetry preload
// (`node --import tsx --import telemetry/preload.ts main.ts`), configured by OTEL_* variables alone,
// exporting OTLP/JSON to a loopback receiver. On both engines: the span tree of a search, of a create
// and its Idempotency-Key replay, and of a 400; express's spans; the caller's traceparent continued;
// the request's log line naming its trace and span.
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createPostgresDatabase, engines, pgliteTemplate, type Engine, type ScratchPostgres } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { testKeyFile, token } from '../http/support/service.js';
import { compiledMain, compiledTelemetryPreload } from '../support/compiled-service.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';

const serverKind = 2;
/**
 * The service's start (and stop) as a process, compiled as production runs it, with tracing's preload:
 * the validators warm up (seconds on a quiet machine, a minute or more when the machine is saturated).
 */
const startTimeoutMs = 180_000;

interface TracedService {
  url: string;
  /** Resolves with the first log line `matches` accepts, as soon as the service writes it. */
  logLine(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

async function startTracedService(env: Record<string, string>): Promise<TracedService> {
  const child = spawn(process.execPath, ['--enable-source-maps', '--import', compiledTelemetryPreload, compiledMain], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DEV_KEY_FILE: testKeyFile,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SEED_DEMO_DATA: 'off',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  const logLine = (matches: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = (): void => {
        const found = lines.find(matches);
        if (found === undefined) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
      void exited.then(() => reject(new Error(`the service exited: ${stderr}`)));
    });
  const listening = await logLine((line) => line.msg === 'listening');
  return {
    url: String(listening.url),
    logLine,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Every trace a test request started: the receiver must hold no other. */
const tracesStartedByTests = new Set<string>();

/** A caller's span context, as a W3C traceparent, with its ids. */
function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  tracesStartedByTests.add(traceId);
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const isStatement = (span: ReceivedSpan) => span.attributes['db.system.name'] === 'postgresql' && typeof span.attributes['db.query.text'] === 'string';
const serverSpanOf = (spans: ReceivedSpan[]) => spans.find((span) => span.kind === serverKind);
const hasServerSpan = (spans: ReceivedSpan[]) => serverSpanOf(spans) !== undefined;

/** Whether every span of the trace descends from the server span (no orphan, nothing in another trace). */
function descendsFrom(spans: ReceivedSpan[], root: ReceivedSpan): boolean {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  return spans.every((span) => {
    let current: ReceivedSpan | undefined = span;
    while (current !== undefined && current !== root) current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId);
    return current === root;
  });
}

/**
 * A migrated database with one account, made here (PGlite from the template cluster, not initdb) and
 * closed again, for the service to open: its start is then a reopen, not a cluster's creation and seed.
 */
async function prepareDatabase(engine: Engine): Promise<{ env: Record<string, string>; account: TestAccount; dispose(): Promise<void> }> {
  const scratch: ScratchPostgres | undefined = engine === 'postgres' ? await createPostgresDatabase('tracing') : undefined;
  const dataDir = engine === 'pglite' ? await mkdtemp(join(tmpdir(), 'invoice-api-tracing-')) : undefined;
  const database = await openDatabase(scratch === undefined ? { url: '', dataDir, pgliteDataDirDump: await pgliteTemplate() } : { url: scratch.url });
  let account: TestAccount;
  try {
    await migrate(database);
    account = await createAccount(database, { clients: 1 });
  } finally {
    await database.close();
  }
  return {
    env: scratch === undefined ? { DATABASE_URL: '', PGLITE_DATA_DIR: dataDir ?? '' } : { DATABASE_URL: scratch.url },
    account,
    async dispose() {
      await scratch?.drop();
      if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(engines)('tracing on %s', (engine: Engine) => {
  let receiver: OtlpReceiver;
  let prepared: Awaited<ReturnType<typeof prepareDatabase>>;
  let service: TracedService;
  let bearer: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    prepared = await prepareDatabase(engine);
    service = await startTracedService({
      ...prepared.env,
      // Redis rate limits on one engine: their commands are spans of the request too.
      ...(engine === 'postgres' ? { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_REDIS_PREFIX: `tracing-test:${randomUUID()}:` } : {}),
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: `tracing-test-${engine}`,
    });
    bearer = await token({ accountId: prepared.account.accountId });
  }, startTimeoutMs);
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await prepared?.dispose();
  }, startTimeoutMs);

  const invoiceBody = (description: string) => ({
    client_id: prepared.account.clientIds[0],
    amount: 12.5,
    currency: 'EUR',
    due_date: '2026-12-31',
    description,
  });

  const call = (method: string, path: string, caller: { traceparent: string }, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${service.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        traceparent: caller.traceparent,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('traces a search: one server span named by its route, continuing the caller, with a span per SQL statement and no values', async () => {
    const caller = callerContext();
    // A value the statements must carry as a parameter, never in their text.
    const secret = `needle-${randomUUID()}`;
    const response = await call('POST', '/api/v1/invoices/search', caller, { criteria: [{ field: 'description', operator: 'like', value: secret }], limit: 5 });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');

    const spans = await receiver.trace(caller.traceId, hasServerSpan);
    const server = serverSpanOf(spans)!;
    expect(server).toMatchObject({
      name: 'POST /api/v1/invoices/search',
      parentSpanId: caller.spanId,
      scope: '@opentelemetry/instrumentation-http',
      attributes: expect.objectContaining({
        'http.route': '/api/v1/invoices/search',
        'openapi.operation_id': 'searchInvoices',
        'http.request.id': requestId,
        'http.response.status_code': 200,
      }),
    });
    expect(descendsFrom(spans, server)).toBe(true);

    const statements = spans.filter(isStatement);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    for (const statement of statements) {
      expect(statement.name).toMatch(engine === 'postgres' ? /^pg\.query:(SELECT|WITH)[ #]/ : /^pglite\.query:(SELECT|WITH)$/);
      expect(statement.kind).toBe(3);
      expect(String(statement.attributes['db.query.text'])).toMatch(/\$1\b/);
    }
    expect(JSON.stringify(spans)).not.toContain(secret);
    // express's own spans, under the server span (opentelemetry-js-contrib#3191 saw them missing on express 5).
    expect(spans.some((span) => span.scope === '@opentelemetry/instrumentation-express' && span.attributes['express.type'] === 'middleware')).toBe(true);
    if (engine === 'postgres') expect(spans.some((span) => span.attributes['db.system.name'] === 'redis')).toBe(true);

    // The request's log line names the trace and the server span.
    const line = await service.logLine((logged) => logged.requestId === requestId && logged.msg === 'request completed');
    expect(line).toMatchObject({ trace_id: caller.traceId, span_id: server.spanId });
  });

  it("traces an export: each batch statement read row by row is a client span of the request's, with no values", async () => {
    const caller = callerContext();
    const secret = `needle-${randomUUID()}`;
    const response = await call('POST', '/api/v1/invoices/export', caller, { criteria: [{ field: 'description', operator: 'like', value: secret }] });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^id,invoice_number,/);

    const spans = await receiver.trace(caller.traceId, hasServerSpan);
    const server = serverSpanOf(spans)!;
    expect(server.name).toBe('POST /api/v1/invoices/export');
    expect(descendsFrom(spans, server)).toBe(true);
    // The batch statement (it writes timestamps with to_char), ended and sent like any other.
    const batches = spans.filter((span) => isStatement(span) && String(span.attributes['db.query.text']).includes('to_char'));
    expect(batches).toHaveLength(1);
    expect(batches[0]?.name).toMatch(engine === 'postgres' ? /^pg\.query:(SELECT|WITH)[ #]/ : /^pglite\.query:(SELECT|WITH)$/);
    expect(batches[0]?.kind).toBe(3);
    expect(JSON.stringify(spans)).not.toContain(secret);
  });

  it('traces a create with an Idempotency-Key and its replay: the replay looks the key up and writes nothing', async () => {
    const body = invoiceBody('traced create');
    const key = { 'idempotency-key': randomUUID() };

    const first = callerContext();
    expect((await call('POST', '/api/v1/invoices', first, body, key)).status).toBe(201);
    const created = await receiver.trace(first.traceId, hasServerSpan);
    const createServer = serverSpanOf(created)!;
    expect(createServer).toMatchObject({ name: 'POST /api/v1/invoices', attributes: expect.objectContaining({ 'openapi.operation_id': 'createInvoice' }) });
    expect(descendsFrom(created, createServer)).toBe(true);
    const createNames = created.map((span) => span.name);
    expect(createNames).toEqual(expect.arrayContaining(['idempotency.lookup', 'idempotency.claim']));
    expect(created.filter(isStatement).some((span) => /\binsert into "invoices"/i.test(String(span.attributes['db.query.text'])))).toBe(true);
    // The claim's statement (the key's lock) is a child of the claim's span.
    const claim = created.find((span) => span.name === 'idempotency.claim')!;
    expect(created.some((span) => isStatement(span) && span.parentSpanId === claim.spanId)).toBe(true);

    const replay = callerContext();
    const again = await call('POST', '/api/v1/invoices', replay, body, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const replayed = await receiver.trace(replay.traceId, hasServerSpan);
    const replayNames = replayed.map((span) => span.name);
    expect(replayNames).toContain('idempotency.lookup');
    expect(replayNames).not.toContain('idempotency.claim');
    expect(replayed.filter(isStatement).map((span) => String(span.attributes['db.query.text']))).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/\binsert into/i)]),
    );
  });

  it('traces an update with If-Match: the row lock it checks under is a span with its statement', async () => {
    const created = await call('POST', '/api/v1/invoices', callerContext(), invoiceBody('to be updated'));
    const { invoice } = (await created.json()) as { invoice: { id: number } };
    const caller = callerContext();
    expect((await call('PATCH', `/api/v1/invoices/${invoice.id}`, caller, { description: 'traced update' }, { 'if-match': '*' })).status).toBe(200);
    const spans = await receiver.trace(caller.traceId, hasServerSpan);
    expect(serverSpanOf(spans)!.name).toBe('PATCH /api/v1/invoices/{invoice_id}');
    const lock = spans.find((span) => span.name === 'if-match.row_lock');
    expect(lock?.attributes).toMatchObject({ 'if_match.resource': 'invoice', 'if_match.sent': true });
    expect(spans.some((span) => isStatement(span) && span.parentSpanId === lock?.spanId && /for update/i.test(String(span.attributes['db.query.text'])))).toBe(
      true,
    );
  });

  it('traces a 400 with its status and no SQL at all', async () => {
    const caller = callerContext();
    expect((await call('POST', '/api/v1/invoices/search', caller, { limit: 'ten' })).status).toBe(400);
    const spans = await receiver.trace(caller.traceId, hasServerSpan);
    expect(serverSpanOf(spans)).toMatchObject({
      name: 'POST /api/v1/invoices/search',
      attributes: expect.objectContaining({ 'http.response.status_code': 400 }),
    });
    expect(spans.filter((span) => span.attributes['db.system.name'] === 'postgresql')).toEqual([]);
  });

  it('makes no trace of its start: the warm-up requests to the validators are not sampled', async () => {
    // The warm-up runs before the service listens and the exporter sends spans in the order they end,
    // so by the time this request's trace has arrived, any span of the start has arrived before it.
    const caller = callerContext();
    expect((await call('GET', '/healthz', caller)).status).toBe(200);
    await receiver.trace(caller.traceId, hasServerSpan);
    const foreign = receiver.spans().filter((span) => !tracesStartedByTests.has(span.traceId));
    expect(foreign.map((span) => `${span.name} ${String(span.attributes['url.path'] ?? '')}`)).toEqual([]);
  });

  it("has express's route spans for the routes express matches itself", async () => {
    const caller = callerContext();
    expect((await call('GET', '/openapi.json', caller)).status).toBe(200);
    const spans = await receiver.trace(caller.traceId, hasServerSpan);
    expect(spans).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          scope: '@opentelemetry/instrumentation-express',
          attributes: expect.objectContaining({ 'express.type': 'request_handler', 'http.route': '/openapi.json' }),
        }),
      ]),
    );
  });
});
