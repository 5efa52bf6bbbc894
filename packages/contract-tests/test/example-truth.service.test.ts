// Every named error example of every operation is what the real service answers. For each example
// shown on an operation, the test provokes that answer from the service and compares status, `error`,
// `details.field` / `details.issue`, and `message` apart from numbers (ids, positions, limits). An
// example without a way to provoke it fails the test, so a new example cannot be added untested.
// Success examples that show computed values (line totals, total_amount) are compared with what the
// service computes for the matching request example.
// Three services: one for most answers, one with a rate limit of 1 per minute (429), and one on
// PostgreSQL behind a TCP proxy whose tables are renamed away (500) and then cut off (503).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec, operationTable, resolveRef, type OpenApiDocument, type OperationId } from '@invoice-api/contract';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgres, urlFor, type TestPostgres } from '../../robustness/test/support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../server/test/support/tcp-proxy.js';
import pg from 'pg';
import { lockName, lockSeed } from '../../server/src/idempotency/store.js';
import { startService, type RunningService } from '../src/service.js';

type Json = Record<string, unknown>;
type Operation = (typeof operationTable)[OperationId];

interface NamedExample {
  operationId: OperationId;
  status: number;
  name: string;
  value: Json;
}

const spec: OpenApiDocument = loadSpec();

/** Every named example of every non-2xx answer in the strict bundle, per operation. */
function errorExamples(): NamedExample[] {
  const found: NamedExample[] = [];
  for (const item of Object.values(spec.paths)) {
    for (const raw of Object.values(item)) {
      const operation = raw as { operationId?: OperationId; responses?: Json };
      if (operation.operationId === undefined || operation.responses === undefined) continue;
      for (const [status, reference] of Object.entries(operation.responses)) {
        if (Number(status) < 300) continue;
        const response = resolveRef(spec, reference);
        const media = resolveRef(spec, (response?.content as Json | undefined)?.['application/json']);
        for (const [name, example] of Object.entries((media?.examples as Json | undefined) ?? {})) {
          found.push({ operationId: operation.operationId, status: Number(status), name, value: resolveRef(spec, example)?.value as Json });
        }
      }
    }
  }
  return found;
}

/** The example value of a named success or request example. */
function exampleValue(name: string): Json {
  return resolveRef(spec, { $ref: `#/components/examples/${name}` })?.value as Json;
}

/** Numbers (ids, positions, limits, seconds) may differ; the words may not. */
function wording(message: unknown): string {
  return String(message).replace(/\d+(?:\.\d+)?/g, '#');
}

interface Call {
  target: 'main' | 'limited' | 'faulty';
  method: string;
  path: string;
  /** A bearer token, or null for none at all. */
  token: string | null;
  body?: string;
  /** A multipart body, made afresh for each send (a FormData is read once). */
  form?: () => FormData;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent first, in order, to set the stage (e.g. a keyed create whose key is then reused). */
  before?: readonly Call[];
}

interface Fixtures {
  keyFile: string;
  token: string;
  expiredToken: string;
  clientId: number;
  draftInvoice: Json;
  sentInvoiceId: number;
  paidInvoiceId: number;
  draftDeliveryId: number;
  issuedDeliveryId: number;
  /** A draft only the Idempotency-Key examples issue. */
  spareDraftDeliveryId: number;
  /** A file attached to the draft invoice. */
  attachmentId: number;
  /** An invoice that keeps as many files as an invoice can. */
  fullInvoiceId: number;
}

/** The smallest bytes that start as a PDF does: what the upload's byte check asks of a PDF. */
const pdfBytes = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** An upload's multipart body: a file of these bytes, name and declared type, and the fields given. */
function uploadForm(bytes: Uint8Array, name: string, type: string, fields: Record<string, string> = {}): () => FormData {
  return () => {
    const form = new FormData();
    form.append('file', new File([bytes], name, { type }));
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    return form;
  };
}

const unknownId = 424242;
const validItems = [{ item_id: 5001, quantity: 2, unit_price: 10.5 }];

/** The path of `operation` with its ids filled in. */
function pathOf(operation: Operation, ids: Record<string, number>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => String(ids[name] ?? unknownId));
}

/** A call of `operation` that the service accepts (on the main service's data), to alter per example. */
function validCall(operationId: OperationId, f: Fixtures): Call {
  const operation = operationTable[operationId];
  const ids = { invoice_id: Number(f.draftInvoice.id), delivery_id: f.draftDeliveryId, user_id: 1, client_id: f.clientId, attachment_id: f.attachmentId };
  const bodies: Partial<Record<OperationId, Json>> = {
    searchInvoices: {},
    exportInvoices: {},
    createInvoice: { client_id: f.clientId, amount: 10, currency: 'CHF', due_date: '2026-12-31' },
    updateInvoice: {},
    createDelivery: { contact_id: f.clientId },
    updateDelivery: {},
    issueDelivery: { delivery_id: f.draftDeliveryId, contact_id: f.clientId, items: validItems },
  };
  const body = bodies[operationId];
  return {
    target: 'main',
    method: operation.method,
    path: pathOf(operation, ids),
    token: f.token,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(operationId === 'uploadInvoiceAttachment' ? { form: uploadForm(pdfBytes, 'signed-order.pdf', 'application/pdf') } : {}),
  };
}

/** The Idempotency-Key whose lock the test holds from outside the service. */
const heldKey = 'held-by-another-instance';

/** How to provoke the example `name` on `operationId`; undefined when the test knows no way. */
function provoke(example: NamedExample, f: Fixtures): Call | undefined {
  const { operationId, name } = example;
  const valid = validCall(operationId, f);
  const operation = operationTable[operationId];
  const withBody = (body: Json): Call => ({ ...valid, body: JSON.stringify(body) });
  const onPath = (ids: Record<string, number>, body?: Json): Call => ({
    ...valid,
    path: pathOf(operation, ids),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  switch (name) {
    case 'MissingToken':
      return { ...valid, token: null };
    case 'ExpiredToken':
      return { ...valid, token: f.expiredToken };
    case 'InsufficientScope':
      return { ...valid, token: 'scope-less' };
    case 'RateLimited':
      return { ...valid, target: 'limited', token: 'own-api-key' };
    case 'InternalError':
      return { ...valid, target: 'faulty' };
    case 'ServiceUnavailable':
    case 'HealthUnavailable':
      return { ...valid, target: 'faulty' };
    case 'PayloadTooLarge':
      return withBody({ description: 'x'.repeat(1024 * 1024 + 16) });
    case 'UnsupportedMediaType':
      return { ...valid, body: 'plain text', contentType: 'text/plain' };
    case 'MalformedJson':
      return { ...valid, body: '{"limit": 3,,}' };
    case 'InvalidInvoiceId':
      // The invoice's segment, wherever it is in the path (`/invoices/{invoice_id}/attachments/{attachment_id}`).
      return { ...valid, path: valid.path.replace(/\/invoices\/\d+/, '/invoices/1e3') };
    case 'InvalidAttachmentId':
    case 'InvalidDeliveryId':
    case 'InvalidUserId':
    case 'InvalidClientId':
      return { ...valid, path: valid.path.replace(/\/\d+$/, '/1e3') };
    case 'UnknownQueryParameter':
      return { ...valid, path: `${valid.path}?page=2` };
    case 'LimitOutOfRange':
      return { ...valid, path: `${valid.path}?limit=5000` };
    case 'InvoiceNotFound':
    case 'DeliveryNotFound':
    case 'UserNotFound':
    case 'CompanyClientNotFound':
      if (operationId === 'issueDelivery') return withBody({ delivery_id: unknownId, contact_id: f.clientId, items: validItems });
      return onPath({});
    case 'AttachmentNotFound':
      return onPath({ invoice_id: Number(f.draftInvoice.id), attachment_id: unknownId });
    case 'MissingFile':
      return {
        ...valid,
        form: () => {
          const form = new FormData();
          form.append('note', 'The file was forgotten');
          return form;
        },
      };
    case 'FileTooLarge': {
      const large = new Uint8Array(11 * 1024 * 1024);
      large.set(pdfBytes);
      return { ...valid, form: uploadForm(large, 'scan.pdf', 'application/pdf') };
    }
    case 'TooManyAttachments':
      return onPath({ invoice_id: f.fullInvoiceId });
    case 'FileNotWhatItClaims':
      return { ...valid, form: uploadForm(new TextEncoder().encode('just some text, renamed\n'), 'notes.pdf', 'application/pdf') };
    case 'UnknownExportProperty':
      return withBody({ limit: 5000 });
    case 'UnknownClient':
      return withBody({ ...JSON.parse(valid.body ?? '{}'), client_id: unknownId });
    case 'UnknownContact':
      return withBody({ ...JSON.parse(valid.body ?? '{}'), contact_id: unknownId });
    case 'MissingAmount':
      return withBody({ client_id: f.clientId, currency: 'CHF', due_date: '2026-12-31' });
    case 'TooManyDecimals':
      return withBody({ ...JSON.parse(valid.body ?? '{}'), amount: 10.123 });
    case 'ReadOnlyField':
      return withBody({ created_at: '2026-01-01T00:00:00.000Z' });
    case 'NullField':
      return withBody({ description: null });
    case 'ZeroQuantity':
      return withBody({ ...JSON.parse(valid.body ?? '{}'), items: [{ item_id: 5001, quantity: 0, unit_price: 1 }] });
    case 'EmptyItems':
      return withBody({ ...JSON.parse(valid.body ?? '{}'), items: [] });
    case 'MissingDeliveryId':
      return withBody({ contact_id: f.clientId, items: validItems });
    case 'AlreadyIssued':
      if (operationId === 'deleteDelivery') return onPath({ delivery_id: f.issuedDeliveryId });
      if (operationId === 'issueDelivery') return withBody({ delivery_id: f.issuedDeliveryId, contact_id: f.clientId, items: validItems });
      return onPath({ delivery_id: f.issuedDeliveryId }, { delivery_date: '2026-12-01' });
    case 'DuplicateInvoiceNumber':
      if (operationId === 'createInvoice') return withBody({ ...JSON.parse(valid.body ?? '{}'), invoice_number: f.draftInvoice.invoice_number });
      return onPath({ invoice_id: Number(f.draftInvoice.id) }, { invoice_number: 'INV-900002' });
    case 'InvoiceLocked':
      return onPath({ invoice_id: f.sentInvoiceId }, { amount: 1 });
    case 'InvoiceNotRemovable':
      return onPath({ invoice_id: f.sentInvoiceId });
    case 'InvalidTransition':
      return onPath({ invoice_id: f.paidInvoiceId }, { status: 'draft' });
    case 'OperatorNotAllowed':
      return withBody({ criteria: [{ field: 'amount', operator: 'like', value: '10' }] });
    case 'UnknownSearchField':
      return withBody({ criteria: [{ field: 'client_name', operator: '=', value: 'Muster AG' }] });
    case 'LimitTooLarge':
      return withBody({ limit: 5000 });
    case 'IdempotencyKeyReused': {
      // The first keyed request succeeds and is stored; the same key with another body is refused.
      const key = `reused-${operationId}`;
      if (operationId === 'uploadInvoiceAttachment')
        return {
          ...valid,
          form: uploadForm(pdfBytes, 'signed-order.pdf', 'application/pdf', { note: 'another note' }),
          before: [{ ...valid, headers: { 'Idempotency-Key': key } }],
          headers: { 'Idempotency-Key': key },
        };
      const first: Call =
        operationId === 'issueDelivery' ? withBody({ delivery_id: f.spareDraftDeliveryId, contact_id: f.clientId, items: validItems }) : valid;
      const firstBody = JSON.parse(first.body ?? '{}') as Json;
      const otherDate = operationId === 'createInvoice' ? { due_date: '2026-12-02' } : { delivery_date: '2026-12-02' };
      return { ...withBody({ ...firstBody, ...otherDate }), before: [{ ...first, headers: { 'Idempotency-Key': key } }], headers: { 'Idempotency-Key': key } };
    }
    case 'IdempotencyKeyInUse':
      // Another instance holds the key's lock (the test takes it on the PostgreSQL service's database).
      return { ...valid, target: 'faulty', headers: { 'Idempotency-Key': heldKey } };
    case 'InvoicePreconditionFailed':
    case 'DeliveryPreconditionFailed':
      // A removal with a stale If-Match removes nothing, so the fixtures' drafts stay for the other examples.
      if (operationId === 'deleteInvoice') return { ...onPath({ invoice_id: Number(f.draftInvoice.id) }), headers: { 'If-Match': '"1-999999"' } };
      if (operationId === 'deleteDelivery') return { ...onPath({ delivery_id: f.draftDeliveryId }), headers: { 'If-Match': '"1-999999"' } };
      if (operationId === 'updateInvoice')
        return { ...onPath({ invoice_id: Number(f.draftInvoice.id) }, { description: 'stale' }), headers: { 'If-Match': '"1-999999"' } };
      return { ...onPath({ delivery_id: f.draftDeliveryId }, { delivery_date: '2026-12-03' }), headers: { 'If-Match': '"1-999999"' } };
    case 'WrongValueType':
      return withBody({ criteria: [{ field: 'due_date', operator: '=', value: 'tomorrow' }] });
    default:
      return undefined;
  }
}

interface Answer {
  status: number;
  body: Json;
}

// The main service (in-memory, healthy throughout) answers the error examples first and then the success
// examples, which create their own invoices and deliveries: one start of it serves both groups. Each
// group's setup asks for it, so it starts beside the other services; it stops after the last group.
const keyFile = join(mkdtempSync(join(tmpdir(), 'example-truth-')), 'jwt-signing-key.json');
let mainService: Promise<RunningService> | undefined;
function startMainService(): Promise<RunningService> {
  // The key file exists before the service starts, so it verifies the tokens minted with it.
  mainService ??= mintDevToken({ keyFile, clientId: 'example-truth' }).then(() => startService({ keyFile }));
  return mainService;
}
afterAll(async () => {
  await (await mainService?.catch(() => undefined))?.stop();
});

// Timeouts here are upper bounds that only end a hung run, not waits: the set-ups start service processes
// and wait for each to listen (seconds on an idle machine, minutes when the rest of the suite saturates it).
describe('every named error example is what the service answers', () => {
  const examples = errorExamples();
  let main: RunningService | undefined;
  let limited: RunningService | undefined;
  let faulty: RunningService | undefined;
  let postgres: TestPostgres | undefined;
  let proxy: TcpProxy | undefined;
  let f: Fixtures;
  let api: (method: string, path: string, body?: Json) => Promise<Answer>;

  beforeAll(async () => {
    // The key file exists before any service starts, so they all verify with the same key.
    const token = await mintDevToken({ keyFile, clientId: 'example-truth' });
    postgres = await createTestPostgres('example_truth');
    proxy = await startTcpProxy({ host: new URL(postgres.url).hostname, port: Number(new URL(postgres.url).port || 5432) });
    [main, limited, faulty] = await Promise.all([
      startMainService(),
      startService({
        keyFile,
        env: {
          RATE_LIMIT_PER_MINUTE: '1',
          RATE_LIMIT_SEARCH_PER_MINUTE: '1',
          RATE_LIMIT_SEARCH_PER_HOUR: '1',
          RATE_LIMIT_EXPORT_PER_MINUTE: '1',
          RATE_LIMIT_EXPORT_PER_HOUR: '1',
        },
      }),
      startService({ keyFile, env: { DATABASE_URL: urlFor(postgres.name, { host: proxy.host, port: proxy.port }), DATABASE_POOL_SIZE: '2' } }),
    ]);
    const mainUrl = main.url;
    api = async (method, path, body) => {
      const response = await fetch(new URL(path, mainUrl), {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const clients = await api('GET', '/api/v1/company_clients');
    const clientId = Number((clients.body.company_clients as Json[])[0]!.id);
    const invoice = (body: Json) => api('POST', '/api/v1/invoices', { client_id: clientId, amount: 100, currency: 'CHF', due_date: '2026-12-31', ...body });
    const draftInvoice = (await invoice({ invoice_number: 'INV-900001' })).body.invoice as Json;
    await invoice({ invoice_number: 'INV-900002' });
    const sentInvoiceId = Number(((await invoice({ status: 'sent' })).body.invoice as Json).id);
    const paidInvoiceId = Number(((await invoice({ status: 'sent' })).body.invoice as Json).id);
    await api('PATCH', `/api/v1/invoices/${paidInvoiceId}`, { status: 'paid' });
    const delivery = async () => Number(((await api('POST', '/2.0/delivery', { contact_id: clientId })).body.delivery as Json).id);
    const draftDeliveryId = await delivery();
    const issuedDeliveryId = await delivery();
    const spareDraftDeliveryId = await delivery();
    await api('POST', '/2.0/delivery/issue', { delivery_id: issuedDeliveryId, contact_id: clientId, items: validItems });
    const attached = await fetch(new URL(`/api/v1/invoices/${String(draftInvoice.id)}/attachments`, mainUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: uploadForm(pdfBytes, 'signed-order.pdf', 'application/pdf')(),
    });
    expect(attached.status).toBe(201);
    const attachmentId = Number((((await attached.json()) as Json).attachment as Json).id);
    const fullInvoiceId = Number(((await invoice({ status: 'sent' })).body.invoice as Json).id);
    for (let file = 0; file < 100; file += 1) {
      const stored = await fetch(new URL(`/api/v1/invoices/${fullInvoiceId}/attachments`, mainUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: uploadForm(pdfBytes, `page-${file}.pdf`, 'application/pdf')(),
      });
      expect(stored.status).toBe(201);
    }
    f = {
      keyFile,
      token,
      expiredToken: await mintDevToken({ keyFile, clientId: 'example-truth', ttlSeconds: -120 }),
      clientId,
      draftInvoice,
      sentInvoiceId,
      paidInvoiceId,
      draftDeliveryId,
      issuedDeliveryId,
      spareDraftDeliveryId,
      attachmentId,
      fullInvoiceId,
    };
  }, 300_000);

  afterAll(async () => {
    await Promise.all([limited?.stop(), faulty?.stop()]);
    await proxy?.close();
    await postgres?.drop();
  });

  async function send(call: Call, example: NamedExample): Promise<Answer> {
    for (const stage of call.before ?? []) await send(stage, example);
    const base = { main, limited, faulty }[call.target]!.url;
    let token = call.token;
    if (token === 'scope-less') {
      const needed: readonly string[] = operationTable[example.operationId].scopes;
      const scope = ['users:read', 'clients:read'].find((candidate) => !needed.includes(candidate))!;
      token = await mintDevToken({ keyFile, clientId: 'example-truth', scopes: [scope] });
    } else if (token === 'own-api-key') {
      token = await mintDevToken({ keyFile, clientId: `limited-${example.operationId}` });
    }
    const headers: Record<string, string> = { ...call.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
    // A FormData body sets its own Content-Type with the boundary.
    const body = call.form !== undefined ? call.form() : call.body;
    const response = await fetch(new URL(call.path, base), { method: call.method, headers, ...(body === undefined ? {} : { body }) });
    // The first call that spends a rate limit may succeed: a 204 has no body, a PDF or CSV is no JSON.
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json') === true;
    return { status: response.status, body: (json ? JSON.parse(text) : {}) as Json };
  }

  async function check(example: NamedExample): Promise<void> {
    const call = provoke(example, f);
    expect(call, `no way to provoke ${example.name} on ${example.operationId}: add one to this test`).toBeDefined();
    let answer = await send(call!, example);
    // The first call of an API key spends its one request per minute; the next is over the limit.
    if (example.name === 'RateLimited') answer = await send(call!, example);
    expect(answer.status, JSON.stringify(answer.body)).toBe(example.status);
    if (example.value.error === undefined) {
      expect(answer.body).toEqual(example.value);
      return;
    }
    expect(answer.body.error).toBe(example.value.error);
    expect(answer.body.details).toEqual(example.value.details);
    expect(wording(answer.body.message)).toBe(wording(example.value.message));
  }

  const byTarget = (target: Call['target'], names: readonly string[]) =>
    examples.filter((example) => (target === 'main' ? !names.includes(example.name) : names.includes(example.name)));
  const faultNames = ['InternalError', 'ServiceUnavailable', 'HealthUnavailable'];
  const caseName = (example: NamedExample) => [`${example.operationId} ${example.status} ${example.name}`, example] as const;

  it('finds the examples of every operation', () => {
    expect(new Set(examples.map((example) => example.operationId)).size).toBe(Object.keys(operationTable).length);
  });

  it.each(byTarget('main', [...faultNames, 'RateLimited', 'IdempotencyKeyInUse']).map(caseName))('%s', async (_name, example) => check(example));

  it.each(byTarget('limited', ['RateLimited']).map(caseName))('%s', async (_name, example) => check(example));

  describe('with an Idempotency-Key held by another instance', () => {
    // The lock another instance's transaction would hold on the key, taken from a session of our own.
    let holder: pg.Client | undefined;
    beforeAll(async () => {
      holder = new pg.Client({ connectionString: postgres!.url });
      await holder.connect();
      const name = lockName({ accountId: 1, apiKey: 'example-truth', key: heldKey });
      await holder.query('select pg_advisory_lock(hashtextextended($1, $2))', [name, lockSeed]);
    });
    afterAll(() => holder?.end());
    it.each(byTarget('faulty', ['IdempotencyKeyInUse']).map(caseName))('%s', async (_name, example) => check(example));
  });

  describe('with the tables gone', () => {
    beforeAll(async () => {
      for (const table of ['invoices', 'invoice_attachments', 'deliveries', 'delivery_items', 'users', 'company_clients'])
        await postgres!.query(`alter table ${table} rename to ${table}_gone`);
    });
    it.each(byTarget('faulty', ['InternalError']).map(caseName))('%s', async (_name, example) => check(example));
  });

  describe('with the database cut off', () => {
    beforeAll(() => proxy!.cut());
    it.each(byTarget('faulty', ['ServiceUnavailable', 'HealthUnavailable']).map(caseName))('%s', async (_name, example) => check(example));
  });
});

describe('success examples show what the service computes', () => {
  let call: (method: string, path: string, body: Json) => Promise<Json>;
  let clientId: number;

  beforeAll(async () => {
    const { url } = await startMainService();
    const token = await mintDevToken({ keyFile, clientId: 'example-truth' });
    call = async (method, path, body) => {
      const response = await fetch(new URL(path, url), {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as Json;
    };
    const clients = (await (await fetch(new URL('/api/v1/company_clients', url), { headers: { authorization: `Bearer ${token}` } })).json()) as Json;
    clientId = Number((clients.company_clients as Json[])[0]!.id);
  }, 300_000);

  const computed = (delivery: Json) => ({
    total_amount: delivery.total_amount,
    currency: delivery.currency,
    items: (delivery.items as Json[]).map(({ item_id, quantity, unit_price, total }) => ({ item_id, quantity, unit_price, total })),
  });

  it('DraftDelivery is the answer to CreateDeliveryRequest: line totals, total_amount, currency', async () => {
    const created = await call('POST', '/2.0/delivery', { ...exampleValue('CreateDeliveryRequest'), contact_id: clientId });
    expect(computed(created.delivery as Json)).toEqual(computed(exampleValue('DraftDelivery').delivery as Json));
  });

  it('IssuedDelivery is the answer to IssueDeliveryRequest', async () => {
    const draft = (await call('POST', '/2.0/delivery', { contact_id: clientId })).delivery as Json;
    const issued = await call('POST', '/2.0/delivery/issue', { ...exampleValue('IssueDeliveryRequest'), delivery_id: draft.id, contact_id: clientId });
    expect(computed(issued)).toEqual(computed(exampleValue('IssuedDelivery')));
  });

  it('DraftInvoice is the answer to CreateInvoiceRequest', async () => {
    const created = (await call('POST', '/api/v1/invoices', { ...exampleValue('CreateInvoiceRequest'), client_id: clientId })).invoice as Json;
    const example = exampleValue('DraftInvoice').invoice as Json;
    for (const field of ['amount', 'currency', 'status', 'due_date', 'description']) expect(created[field], field).toEqual(example[field]);
    expect(String(created.invoice_number)).toMatch(/^INV-\d{6}$/);
  });

  it('InvoiceSearchPage keeps has_more consistent with its pagination', () => {
    const page = exampleValue('InvoiceSearchPage');
    const pagination = page.pagination as { total: number; limit: number; offset: number; has_more: boolean };
    const returned = (page.data as Json[]).length;
    expect(returned).toBeLessThanOrEqual(pagination.limit);
    expect(pagination.has_more).toBe(pagination.offset + returned < pagination.total);
  });
});
