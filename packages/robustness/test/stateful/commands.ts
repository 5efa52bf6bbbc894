// The commands of the stateful run: one per operation (and per way of calling it that may fail),
// each drawn with abstract arguments (which link to follow, which client, which flaw) that are
// resolved against the model when the command runs. After each call the real answer is compared with
// what the model predicts (status, body, ETag, Location, paging), then the model moves on and the
// answer's links join the argument sources.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Delivery, Invoice, InvoiceStatus, OperationId } from '@invoice-api/contract';
import { isRecord } from '@invoice-api/contract';
import {
  entityTag,
  harvest,
  linksTo,
  pathOf,
  sourcesOf,
  type Attachment,
  type FormPart,
  type HarvestedLink,
  type Model,
  type PreparedRequest,
  type StoredAttachment,
  type ValueSource,
} from './model.js';
import { send, type Real, type Sent } from './real.js';
import {
  deliveryTotals,
  exportColumns,
  exportRow,
  formatNumber,
  lineRequest,
  planInvoiceUpdate,
  searchResult,
  compareRows,
  sortValue,
  type Criterion,
  type InvoiceFields,
  type LineInput,
  type SearchShape,
  type SortField,
} from './rules.js';
import { parseCsv } from './csv.js';
import { stats } from './stats.js';

export type StatefulCommand = fc.AsyncCommand<Model, Real, false>;

const statuses: readonly InvoiceStatus[] = ['draft', 'sent', 'paid', 'overdue', 'cancelled'];
// The last two start as a spreadsheet formula would: the export must write them with a `'` first.
const descriptions = ['', 'Alpha work', 'beta review', 'Gamma and BETA', 'consulting', '=HYPERLINK("x", "beta")', '-5, "a" discount'];
const amounts = [0, 12.5, 99.99, 100, 250.75];
const dates = ['2026-01-15', '2026-02-01', '2026-03-31', '2026-06-30'];
const currencies = ['CHF', 'EUR'];
const invoiceNumbers = ['X-1', 'X-2'];

/** Runs the checks of one command; counts it for the figures. */
async function sendChecked(real: Real, request: PreparedRequest, expected: string): Promise<Sent> {
  stats.commands += 1;
  stats.operations.add(request.operationId);
  return send(real, request, expected);
}

function errorOf(body: unknown): { error?: unknown; details?: { field?: unknown } } {
  return isRecord(body) ? (body as { error?: unknown; details?: { field?: unknown } }) : {};
}

function expectError(sent: Sent, status: number, error: string, field?: string): void {
  expect(sent.answer.status, `status of ${sent.answer.request.operationId}`).toBe(status);
  expect(errorOf(sent.answer.body).error).toBe(error);
  if (field !== undefined) expect(errorOf(sent.answer.body).details?.field).toBe(field);
}

function pickLink(model: Readonly<Model>, operationId: OperationId, index: number, names?: readonly string[]): HarvestedLink | undefined {
  const pool = linksTo(model, operationId, names);
  return pool.length === 0 ? undefined : pool[index % pool.length];
}

/** The link a command follows, counted for the figures. */
function followed(link: HarvestedLink): HarvestedLink {
  stats.links.add(link.name);
  return link;
}

function linkedId(link: HarvestedLink, name: string): number {
  const value = link.parameters[name] ?? link.requestBody?.[name];
  if (typeof value !== 'number') throw new Error(`link ${link.name} gave ${name} = ${String(value)}`);
  return value;
}

function nextKey(model: Model): string {
  model.keyCounter += 1;
  return `stateful-${model.accountId}-${model.keyCounter}`;
}

function storeAnswer(model: Model, key: string | undefined, sent: Sent): void {
  if (key === undefined || sent.answer.status >= 300) return;
  model.answers.push({
    key,
    operationId: sent.answer.request.operationId,
    method: sent.answer.request.method,
    path: pathOf(sent.answer.request),
    request: sent.answer.request,
    status: sent.answer.status,
    body: sent.answer.body,
    location: sent.answer.location,
  });
}

function clientRef(model: Readonly<Model>, index: number | 'foreign'): { id: number; source: ValueSource } {
  if (index === 'foreign') return { id: model.foreignClientId, source: { kind: 'foreign-client' } };
  const client = model.clients[index % model.clients.length]!;
  return { id: client.id, source: { kind: 'client', index: index % model.clients.length } };
}

// ---------- invoices ----------

type CreateFlaw = 'none' | 'foreign-client' | 'three-decimals' | 'paid-status';

interface InvoiceDraft {
  client: number;
  amount: number;
  currency: string;
  due_date: string;
  description: string | null;
  status: 'draft' | 'sent' | null;
  invoice_number: string | null;
  flaw: CreateFlaw;
  withKey: boolean;
}

class CreateInvoice implements StatefulCommand {
  constructor(readonly draft: InvoiceDraft) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { draft } = this;
    const client = clientRef(model, draft.flaw === 'foreign-client' ? 'foreign' : draft.client);
    const body: Record<string, unknown> = {
      client_id: client.id,
      amount: draft.flaw === 'three-decimals' ? 10.125 : draft.amount,
      currency: draft.currency,
      due_date: draft.due_date,
      ...(draft.description === null ? {} : { description: draft.description }),
      ...(draft.flaw === 'paid-status' ? { status: 'paid' } : draft.status === null ? {} : { status: draft.status }),
      ...(draft.invoice_number === null ? {} : { invoice_number: draft.invoice_number }),
    };
    const key = draft.withKey ? nextKey(model) : undefined;
    const request: PreparedRequest = {
      operationId: 'createInvoice',
      actor: 'mine',
      method: 'POST',
      template: '/api/v1/invoices',
      pathValues: {},
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      body,
      sources: { 'body/client_id': client.source },
    };
    const flawField: Record<Exclude<CreateFlaw, 'none'>, string> = { 'foreign-client': 'client_id', 'three-decimals': 'amount', 'paid-status': 'status' };
    if (draft.flaw !== 'none') {
      const sent = await sendChecked(real, request, `400 invalid_request (${flawField[draft.flaw]})`);
      expectError(sent, 400, 'invalid_request', flawField[draft.flaw]);
      return;
    }
    const taken = draft.invoice_number !== null && [...model.invoices.values()].some(({ invoice }) => invoice.invoice_number === draft.invoice_number);
    if (taken) {
      const sent = await sendChecked(real, request, '409 conflict (invoice_number)');
      expectError(sent, 409, 'conflict', 'invoice_number');
      return;
    }
    const sent = await sendChecked(real, request, '201 the new invoice');
    expect(sent.answer.status).toBe(201);
    const created = (sent.answer.body as { invoice: Invoice }).invoice;
    expect(model.invoices.has(created.id), 'a new id').toBe(false);
    const expected: Invoice = {
      id: created.id,
      invoice_number: draft.invoice_number ?? formatNumber('INV-', model.nextInvoiceNumber),
      client_id: client.id,
      client_name: model.clients.find((entry) => entry.id === client.id)!.name,
      amount: draft.amount,
      currency: draft.currency,
      status: draft.status ?? 'draft',
      due_date: draft.due_date,
      description: draft.description ?? '',
      created_at: created.created_at,
      updated_at: created.created_at,
    };
    expect(sent.answer.body).toEqual({ invoice: expected });
    expect(sent.answer.location).toBe(`/api/v1/invoices/${created.id}`);
    if (draft.invoice_number === null) model.nextInvoiceNumber += 1;
    model.invoices.set(created.id, { invoice: expected, version: 1 });
    storeAnswer(model, key, sent);
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `createInvoice(${JSON.stringify(this.draft)})`;
  }
}

class GetInvoice implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'getInvoice', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'getInvoice', this.pick)!);
    const id = linkedId(link, 'invoice_id');
    const stored = model.invoices.get(id);
    const request: PreparedRequest = {
      operationId: 'getInvoice',
      actor: 'mine',
      method: 'GET',
      template: '/api/v1/invoices/{invoice_id}',
      pathValues: { invoice_id: id },
      headers: {},
      body: undefined,
      sources: sourcesOf(link),
    };
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const sent = await sendChecked(real, request, `200 the invoice as last written, ETag ${entityTag(id, stored.version)}`);
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.body).toEqual({ invoice: stored.invoice });
    expect(sent.answer.etag).toBe(entityTag(id, stored.version));
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `getInvoice(link ${this.pick})`;
  }
}

type IfMatchChoice = 'none' | 'link' | 'current' | 'stale' | 'any';

function ifMatchFor(
  choice: IfMatchChoice,
  link: HarvestedLink,
  id: number,
  version: number,
): { header: Record<string, string>; tag: string | undefined; source: ValueSource | undefined } {
  const idSource = sourcesOf(link)['path.invoice_id'] ?? sourcesOf(link)['path.delivery_id'];
  const tagged = (v: number) => ({
    header: { 'If-Match': entityTag(id, v) },
    tag: entityTag(id, v),
    source: idSource?.kind === 'answer' ? ({ kind: 'entity-tag', step: idSource.step, expression: idSource.expression, version: v } as const) : undefined,
  });
  switch (choice) {
    case 'none':
      return { header: {}, tag: undefined, source: undefined };
    case 'any':
      return { header: { 'If-Match': '*' }, tag: undefined, source: undefined };
    case 'current':
      return tagged(version);
    case 'stale':
      return tagged(version - 1);
    case 'link': {
      const tag = link.parameters['header.If-Match'];
      if (typeof tag !== 'string') return { header: {}, tag: undefined, source: undefined };
      return { header: { 'If-Match': tag }, tag, source: { kind: 'answer', step: link.fromStep, expression: link.sources['header.If-Match']! } };
    }
  }
}

type InvoicePatchFlaw = 'none' | 'null-amount' | 'read-only-id' | 'unknown-status';

interface InvoicePatch {
  fields: { status?: InvoiceStatus; description?: string; amount?: number; due_date?: string; client?: number };
  flaw: InvoicePatchFlaw;
}

class UpdateInvoice implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly patch: InvoicePatch,
    readonly ifMatch: IfMatchChoice,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'updateInvoice', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'updateInvoice', this.pick)!);
    const id = linkedId(link, 'invoice_id');
    const stored = model.invoices.get(id) ?? { invoice: undefined, version: 1 };
    const { fields, flaw } = this.patch;
    const sources: Record<string, ValueSource> = sourcesOf(link);
    delete sources['header.If-Match'];
    const body: Record<string, unknown> = {};
    const update: Partial<InvoiceFields> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (name === 'client') {
        const client = clientRef(model, value as number);
        body['client_id'] = client.id;
        update.client_id = client.id;
        sources['body/client_id'] = client.source;
      } else {
        body[name] = value;
        Object.assign(update, { [name]: value });
      }
    }
    if (flaw === 'null-amount') body['amount'] = null;
    if (flaw === 'read-only-id') body['id'] = id;
    if (flaw === 'unknown-status') body['status'] = 'archived';
    const condition = ifMatchFor(this.ifMatch, link, id, stored.version);
    if (condition.source !== undefined) sources['header.If-Match'] = condition.source;
    const request: PreparedRequest = {
      operationId: 'updateInvoice',
      actor: 'mine',
      method: 'PATCH',
      template: '/api/v1/invoices/{invoice_id}',
      pathValues: { invoice_id: id },
      headers: condition.header,
      body,
      sources,
    };
    if (flaw !== 'none') {
      const field = { 'null-amount': 'amount', 'read-only-id': 'id', 'unknown-status': 'status' }[flaw];
      const sent = await sendChecked(real, request, `400 invalid_request (${field})`);
      expectError(sent, 400, 'invalid_request', field);
      return;
    }
    if (stored.invoice === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const currentTag = entityTag(id, stored.version);
    if (condition.tag !== undefined && condition.tag !== currentTag) {
      const sent = await sendChecked(real, request, `412 precondition_failed (current ${currentTag})`);
      expectError(sent, 412, 'precondition_failed');
      return;
    }
    const outcome = planInvoiceUpdate(stored.invoice, update);
    if (outcome.kind === 'conflict') {
      const sent = await sendChecked(real, request, `409 ${outcome.error}`);
      expectError(sent, 409, outcome.error);
      return;
    }
    if (outcome.kind === 'unchanged') {
      const sent = await sendChecked(real, request, `200 unchanged, ETag ${currentTag}`);
      expect(sent.answer.status).toBe(200);
      expect(sent.answer.body).toEqual({ invoice: stored.invoice });
      expect(sent.answer.etag).toBe(currentTag);
      harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
      return;
    }
    const sent = await sendChecked(real, request, `200 changed, ETag ${entityTag(id, stored.version + 1)}`);
    expect(sent.answer.status).toBe(200);
    const answered = (sent.answer.body as { invoice: Invoice }).invoice;
    const clientName =
      outcome.fields.client_id === undefined ? stored.invoice.client_name : model.clients.find((entry) => entry.id === outcome.fields.client_id)!.name;
    const expected: Invoice = { ...stored.invoice, ...outcome.fields, client_name: clientName, updated_at: answered.updated_at };
    expect(sent.answer.body).toEqual({ invoice: expected });
    expect(answered.updated_at > stored.invoice.updated_at, 'updated_at moves forward').toBe(true);
    expect(sent.answer.etag).toBe(entityTag(id, stored.version + 1));
    model.invoices.set(id, { invoice: expected, version: stored.version + 1 });
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `updateInvoice(link ${this.pick}, ${JSON.stringify(this.patch)}, If-Match ${this.ifMatch})`;
  }
}

// ---------- search ----------

interface SearchDraft {
  criteria: Criterion[];
  orderBy: SortField;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** The search a request body asks for, with the spec's defaults. */
function shapeOf(body: Record<string, unknown>): SearchShape & { limit: number; offset: number; cursor: string | undefined } {
  return {
    criteria: (body['criteria'] as Criterion[] | undefined) ?? [],
    orderBy: (body['order_by'] as SortField | undefined) ?? 'created_at',
    direction: (body['order_direction'] as 'asc' | 'desc' | undefined) ?? 'desc',
    limit: (body['limit'] as number | undefined) ?? 50,
    offset: (body['offset'] as number | undefined) ?? 0,
    cursor: body['cursor'] as string | undefined,
  };
}

/** Sends a search and checks its page, total and paging against the model, by offset or by cursor. */
async function checkedSearch(model: Model, real: Real, request: PreparedRequest): Promise<void> {
  const search = shapeOf(request.body as Record<string, unknown>);
  const all = searchResult(
    [...model.invoices.values()].map((entry) => entry.invoice),
    search,
  );
  let rows: Invoice[];
  let offset: number;
  if (search.cursor === undefined) {
    rows = all.slice(search.offset);
    offset = search.offset;
  } else {
    const origin = model.cursors.get(search.cursor);
    if (origin === undefined) throw new Error('a cursor the model did not see made');
    rows = all.filter((invoice) => compareRows({ value: sortValue(invoice, search.orderBy), id: invoice.id }, origin.last, search.direction) > 0);
    offset = origin.nextPosition;
  }
  const page = rows.slice(0, search.limit);
  const hasMore = rows.length > search.limit;
  const sent = await sendChecked(
    real,
    request,
    `200 ${page.length} of ${all.length} (ids ${page.map((invoice) => invoice.id).join(',') || 'none'}), has_more ${hasMore}`,
  );
  expect(sent.answer.status).toBe(200);
  const answer = sent.answer.body as { data: Invoice[]; pagination: Record<string, unknown> };
  const nextCursor = answer.pagination['next_cursor'];
  expect(answer).toEqual({
    data: page,
    pagination: { total: all.length, limit: search.limit, offset, has_more: hasMore, ...(hasMore ? { next_cursor: nextCursor } : {}) },
  });
  if (hasMore) {
    expect(typeof nextCursor).toBe('string');
    const last = page[page.length - 1]!;
    model.cursors.set(nextCursor as string, {
      shape: search,
      last: { value: sortValue(last, search.orderBy), id: last.id },
      nextPosition: offset + page.length,
    });
  }
  harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
}

class SearchInvoices implements StatefulCommand {
  constructor(readonly draft: SearchDraft) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { draft } = this;
    const sources: Record<string, ValueSource> = {};
    const criteria = draft.criteria.map((criterion, index) => {
      if (criterion.field !== 'client_id') return criterion;
      const client = clientRef(model, criterion.value);
      sources[`body/criteria/${index}/value`] = client.source;
      return { ...criterion, value: client.id };
    });
    const body = {
      limit: draft.limit,
      ...(draft.offset === 0 ? {} : { offset: draft.offset }),
      order_by: draft.orderBy,
      order_direction: draft.direction,
      ...(criteria.length === 0 ? {} : { criteria }),
    };
    await checkedSearch(model, real, {
      operationId: 'searchInvoices',
      actor: 'mine',
      method: 'POST',
      template: '/api/v1/invoices/search',
      pathValues: {},
      headers: {},
      body,
      sources,
    });
  }
  toString(): string {
    return `searchInvoices(${JSON.stringify(this.draft)})`;
  }
}

/** Follows a link to searchInvoices: the next page by cursor, or a company client's invoices. */
class FollowSearchLink implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'searchInvoices', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'searchInvoices', this.pick)!);
    await checkedSearch(model, real, {
      operationId: 'searchInvoices',
      actor: 'mine',
      method: 'POST',
      template: '/api/v1/invoices/search',
      pathValues: {},
      headers: {},
      body: link.requestBody ?? {},
      sources: sourcesOf(link),
    });
  }
  toString(): string {
    return `searchInvoices(link ${this.pick})`;
  }
}

// ---------- company clients ----------

class ListCompanyClients implements StatefulCommand {
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const sent = await sendChecked(
      real,
      {
        operationId: 'listCompanyClients',
        actor: 'mine',
        method: 'GET',
        template: '/api/v1/company_clients',
        pathValues: {},
        headers: {},
        body: undefined,
        sources: {},
      },
      `200 the ${model.clients.length} clients`,
    );
    expect(sent.answer.status).toBe(200);
    const listed = (sent.answer.body as { company_clients: Array<{ id: number; name: string }> }).company_clients;
    expect(listed.map(({ id, name }) => ({ id, name }))).toEqual(model.clients);
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return 'listCompanyClients()';
  }
}

class GetCompanyClient implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'getCompanyClient', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'getCompanyClient', this.pick)!);
    const id = linkedId(link, 'client_id');
    const sent = await sendChecked(
      real,
      {
        operationId: 'getCompanyClient',
        actor: 'mine',
        method: 'GET',
        template: '/api/v1/company_clients/{client_id}',
        pathValues: { client_id: id },
        headers: {},
        body: undefined,
        sources: sourcesOf(link),
      },
      '200 the client',
    );
    expect(sent.answer.status).toBe(200);
    expect((sent.answer.body as { company_client: { id: number; name: string } }).company_client).toMatchObject(
      model.clients.find((client) => client.id === id)!,
    );
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `getCompanyClient(link ${this.pick})`;
  }
}

// ---------- deliveries ----------

interface DeliveryDraft {
  client: number;
  date: string | null;
  lines: LineInput[] | null;
  flaw: 'none' | 'foreign-contact';
  withKey: boolean;
}

function lineSources(lines: readonly LineInput[]): Array<ReturnType<typeof lineRequest>> {
  return lines.map(lineRequest);
}

/** The items of a delivery answer as the model predicts them (the line ids are the service's). */
function expectedItems(lines: readonly LineInput[], answered: Delivery['items']): Delivery['items'] {
  const { lineTotals } = deliveryTotals(lines);
  return lines.map((line, index) => ({ id: answered[index]?.id ?? -1, ...lineRequest(line), total: lineTotals[index]! }));
}

class CreateDelivery implements StatefulCommand {
  constructor(readonly draft: DeliveryDraft) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { draft } = this;
    const contact = clientRef(model, draft.flaw === 'foreign-contact' ? 'foreign' : draft.client);
    const body = {
      contact_id: contact.id,
      ...(draft.date === null ? {} : { delivery_date: draft.date }),
      ...(draft.lines === null ? {} : { items: lineSources(draft.lines) }),
    };
    const key = draft.withKey ? nextKey(model) : undefined;
    const request: PreparedRequest = {
      operationId: 'createDelivery',
      actor: 'mine',
      method: 'POST',
      template: '/2.0/delivery',
      pathValues: {},
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      body,
      sources: { 'body/contact_id': contact.source },
    };
    if (draft.flaw === 'foreign-contact') {
      expectError(await sendChecked(real, request, '400 invalid_request (contact_id)'), 400, 'invalid_request', 'contact_id');
      return;
    }
    const sent = await sendChecked(real, request, '201 the new draft');
    expect(sent.answer.status).toBe(201);
    const created = (sent.answer.body as { delivery: Delivery }).delivery;
    expect(model.deliveries.has(created.id), 'a new id').toBe(false);
    const lines = draft.lines ?? [];
    const expected: Delivery = {
      id: created.id,
      delivery_nr: formatNumber('LS-', model.nextDeliveryNumber),
      contact_id: contact.id,
      delivery_date: draft.date,
      status: 'draft',
      total_amount: deliveryTotals(lines).total,
      currency: model.currency,
      items: expectedItems(lines, created.items),
      created_at: created.created_at,
      updated_at: created.created_at,
    };
    expect(sent.answer.body).toEqual({ delivery: expected });
    expect(sent.answer.location).toBe(`/2.0/delivery/${created.id}`);
    model.nextDeliveryNumber += 1;
    model.deliveries.set(created.id, { delivery: expected, version: 1 });
    storeAnswer(model, key, sent);
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `createDelivery(${JSON.stringify(this.draft)})`;
  }
}

class GetDelivery implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'getDelivery', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'getDelivery', this.pick)!);
    const id = linkedId(link, 'delivery_id');
    const stored = model.deliveries.get(id);
    const request: PreparedRequest = {
      operationId: 'getDelivery',
      actor: 'mine',
      method: 'GET',
      template: '/2.0/delivery/{delivery_id}',
      pathValues: { delivery_id: id },
      headers: {},
      body: undefined,
      sources: sourcesOf(link),
    };
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const sent = await sendChecked(real, request, `200 the ${stored.delivery.status} delivery as last written, ETag ${entityTag(id, stored.version)}`);
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.body).toEqual({ delivery: stored.delivery });
    expect(sent.answer.etag).toBe(entityTag(id, stored.version));
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `getDelivery(link ${this.pick})`;
  }
}

interface DeliveryPatch {
  client: number | null;
  date: string | null;
  lines: LineInput[] | null;
  flaw: 'none' | 'foreign-contact';
}

function sameLines(stored: Delivery['items'], lines: readonly LineInput[]): boolean {
  return (
    stored.length === lines.length &&
    lines.every((line, index) => {
      const requested = lineRequest(line);
      const item = stored[index]!;
      return item.item_id === requested.item_id && item.quantity === requested.quantity && item.unit_price === requested.unit_price;
    })
  );
}

class UpdateDelivery implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly patch: DeliveryPatch,
    readonly ifMatch: IfMatchChoice,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'updateDelivery', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'updateDelivery', this.pick)!);
    const id = linkedId(link, 'delivery_id');
    const stored = model.deliveries.get(id) ?? { delivery: undefined, version: 1 };
    const { patch } = this;
    const sources: Record<string, ValueSource> = sourcesOf(link);
    delete sources['header.If-Match'];
    const contact = patch.flaw === 'foreign-contact' ? clientRef(model, 'foreign') : patch.client === null ? undefined : clientRef(model, patch.client);
    if (contact !== undefined) sources['body/contact_id'] = contact.source;
    const body = {
      ...(contact === undefined ? {} : { contact_id: contact.id }),
      ...(patch.date === null ? {} : { delivery_date: patch.date }),
      ...(patch.lines === null ? {} : { items: lineSources(patch.lines) }),
    };
    const condition = ifMatchFor(this.ifMatch, link, id, stored.version);
    if (condition.source !== undefined) sources['header.If-Match'] = condition.source;
    const request: PreparedRequest = {
      operationId: 'updateDelivery',
      actor: 'mine',
      method: 'PATCH',
      template: '/2.0/delivery/{delivery_id}',
      pathValues: { delivery_id: id },
      headers: condition.header,
      body,
      sources,
    };
    if (patch.flaw === 'foreign-contact') {
      expectError(await sendChecked(real, request, '400 invalid_request (contact_id)'), 400, 'invalid_request', 'contact_id');
      return;
    }
    if (stored.delivery === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const currentTag = entityTag(id, stored.version);
    if (condition.tag !== undefined && condition.tag !== currentTag) {
      expectError(await sendChecked(real, request, `412 precondition_failed (current ${currentTag})`), 412, 'precondition_failed');
      return;
    }
    if (stored.delivery.status === 'issued') {
      expectError(await sendChecked(real, request, '409 already_issued'), 409, 'already_issued');
      return;
    }
    const current = stored.delivery;
    const contactChange = contact !== undefined && contact.id !== current.contact_id;
    const dateChange = patch.date !== null && patch.date !== current.delivery_date;
    const linesChange = patch.lines !== null && !sameLines(current.items, patch.lines);
    if (!contactChange && !dateChange && !linesChange) {
      const sent = await sendChecked(real, request, `200 unchanged, ETag ${currentTag}`);
      expect(sent.answer.status).toBe(200);
      expect(sent.answer.body).toEqual({ delivery: current });
      expect(sent.answer.etag).toBe(currentTag);
      harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
      return;
    }
    const sent = await sendChecked(real, request, `200 changed, ETag ${entityTag(id, stored.version + 1)}`);
    expect(sent.answer.status).toBe(200);
    const answered = (sent.answer.body as { delivery: Delivery }).delivery;
    const expected: Delivery = {
      ...current,
      ...(contactChange ? { contact_id: contact.id } : {}),
      ...(dateChange ? { delivery_date: patch.date } : {}),
      ...(linesChange && patch.lines !== null ? { items: expectedItems(patch.lines, answered.items), total_amount: deliveryTotals(patch.lines).total } : {}),
      updated_at: answered.updated_at,
    };
    expect(sent.answer.body).toEqual({ delivery: expected });
    expect(answered.updated_at > current.updated_at, 'updated_at moves forward').toBe(true);
    expect(sent.answer.etag).toBe(entityTag(id, stored.version + 1));
    model.deliveries.set(id, { delivery: expected, version: stored.version + 1 });
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `updateDelivery(link ${this.pick}, ${JSON.stringify(this.patch)}, If-Match ${this.ifMatch})`;
  }
}

interface IssueDraft {
  lines: LineInput[];
  date: string | null;
  contact: 'link' | number | 'foreign';
  withKey: boolean;
}

class IssueDelivery implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly draft: IssueDraft,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'issueDelivery', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'issueDelivery', this.pick)!);
    const id = linkedId(link, 'delivery_id');
    const stored = model.deliveries.get(id);
    const { draft } = this;
    const sources: Record<string, ValueSource> = sourcesOf(link);
    const body: Record<string, unknown> = {
      ...link.requestBody,
      items: lineSources(draft.lines),
      ...(draft.date === null ? {} : { delivery_date: draft.date }),
    };
    if (draft.contact !== 'link') {
      const contact = clientRef(model, draft.contact);
      body['contact_id'] = contact.id;
      sources['body/contact_id'] = contact.source;
    }
    const key = draft.withKey ? nextKey(model) : undefined;
    const request: PreparedRequest = {
      operationId: 'issueDelivery',
      actor: 'mine',
      method: 'POST',
      template: '/2.0/delivery/issue',
      pathValues: {},
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      body,
      sources,
    };
    if (draft.lines.length === 0) {
      expectError(await sendChecked(real, request, '400 invalid_request (items)'), 400, 'invalid_request', 'items');
      return;
    }
    if (draft.contact === 'foreign') {
      expectError(await sendChecked(real, request, '400 invalid_request (contact_id)'), 400, 'invalid_request', 'contact_id');
      return;
    }
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    if (stored.delivery.status === 'issued') {
      expectError(await sendChecked(real, request, '409 already_issued'), 409, 'already_issued');
      return;
    }
    const sent = await sendChecked(real, request, `200 issued, ETag afterwards ${entityTag(id, stored.version + 1)}`);
    expect(sent.answer.status).toBe(200);
    const answered = sent.answer.body as Delivery;
    const expected: Delivery = {
      ...stored.delivery,
      contact_id: body['contact_id'] as number,
      delivery_date: draft.date ?? stored.delivery.delivery_date ?? new Date().toISOString().slice(0, 10),
      status: 'issued',
      total_amount: deliveryTotals(draft.lines).total,
      items: expectedItems(draft.lines, answered.items),
      updated_at: answered.updated_at,
    };
    expect(answered).toEqual(expected);
    expect(answered.updated_at > stored.delivery.updated_at, 'updated_at moves forward').toBe(true);
    model.deliveries.set(id, { delivery: expected, version: stored.version + 1 });
    storeAnswer(model, key, sent);
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `issueDelivery(link ${this.pick}, ${JSON.stringify(this.draft)})`;
  }
}

class ListDeliveries implements StatefulCommand {
  constructor(
    readonly limit: number,
    readonly offset: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const all = [...model.deliveries.values()].map((entry) => entry.delivery).sort((a, b) => a.id - b.id);
    const page = all.slice(this.offset, this.offset + this.limit);
    const sent = await sendChecked(
      real,
      {
        operationId: 'listDeliveries',
        actor: 'mine',
        method: 'GET',
        template: `/2.0/delivery?limit=${this.limit}&offset=${this.offset}`,
        pathValues: {},
        headers: {},
        body: undefined,
        sources: {},
      },
      `200 ${page.length} deliveries`,
    );
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.body).toEqual({ deliveries: page });
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `listDeliveries(limit ${this.limit}, offset ${this.offset})`;
  }
}

// ---------- removals ----------

// No link of the spec leads to a removal: DELETE takes the id (and the ETag for If-Match) from the
// links to the update of the same resource, the ones that carry an If-Match. Borrowed, not followed:
// the figures count a link only when its own operation is called.

class DeleteInvoice implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly ifMatch: IfMatchChoice,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'updateInvoice', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = pickLink(model, 'updateInvoice', this.pick)!;
    const id = linkedId(link, 'invoice_id');
    const stored = model.invoices.get(id);
    const sources: Record<string, ValueSource> = sourcesOf(link);
    delete sources['header.If-Match'];
    const condition = ifMatchFor(this.ifMatch, link, id, stored?.version ?? 1);
    if (condition.source !== undefined) sources['header.If-Match'] = condition.source;
    const request: PreparedRequest = {
      operationId: 'deleteInvoice',
      actor: 'mine',
      method: 'DELETE',
      template: '/api/v1/invoices/{invoice_id}',
      pathValues: { invoice_id: id },
      headers: condition.header,
      body: undefined,
      sources,
    };
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const currentTag = entityTag(id, stored.version);
    if (condition.tag !== undefined && condition.tag !== currentTag) {
      expectError(await sendChecked(real, request, `412 precondition_failed (current ${currentTag})`), 412, 'precondition_failed');
      return;
    }
    if (stored.invoice.status !== 'draft') {
      expectError(await sendChecked(real, request, `409 invoice_locked (${stored.invoice.status})`), 409, 'invoice_locked');
      return;
    }
    const sent = await sendChecked(real, request, '204 removed, no body');
    expect(sent.answer.status).toBe(204);
    expect(sent.answer.body).toBeUndefined();
    model.invoices.delete(id);
    model.attachments.delete(id);
  }
  toString(): string {
    return `deleteInvoice(link ${this.pick}, If-Match ${this.ifMatch})`;
  }
}

class DeleteDelivery implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly ifMatch: IfMatchChoice,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'updateDelivery', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = pickLink(model, 'updateDelivery', this.pick)!;
    const id = linkedId(link, 'delivery_id');
    const stored = model.deliveries.get(id);
    const sources: Record<string, ValueSource> = sourcesOf(link);
    delete sources['header.If-Match'];
    const condition = ifMatchFor(this.ifMatch, link, id, stored?.version ?? 1);
    if (condition.source !== undefined) sources['header.If-Match'] = condition.source;
    const request: PreparedRequest = {
      operationId: 'deleteDelivery',
      actor: 'mine',
      method: 'DELETE',
      template: '/2.0/delivery/{delivery_id}',
      pathValues: { delivery_id: id },
      headers: condition.header,
      body: undefined,
      sources,
    };
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const currentTag = entityTag(id, stored.version);
    if (condition.tag !== undefined && condition.tag !== currentTag) {
      expectError(await sendChecked(real, request, `412 precondition_failed (current ${currentTag})`), 412, 'precondition_failed');
      return;
    }
    if (stored.delivery.status === 'issued') {
      expectError(await sendChecked(real, request, '409 already_issued'), 409, 'already_issued');
      return;
    }
    const sent = await sendChecked(real, request, '204 removed, no body');
    expect(sent.answer.status).toBe(204);
    expect(sent.answer.body).toBeUndefined();
    model.deliveries.delete(id);
  }
  toString(): string {
    return `deleteDelivery(link ${this.pick}, If-Match ${this.ifMatch})`;
  }
}

// ---------- the invoice as PDF ----------

type IfNoneMatchChoice = 'none' | 'current' | 'stale';

class GetInvoicePdf implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly ifNoneMatch: IfNoneMatchChoice,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'getInvoicePdf', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'getInvoicePdf', this.pick)!);
    const id = linkedId(link, 'invoice_id');
    const stored = model.invoices.get(id);
    const version = stored?.version ?? 1;
    const sources: Record<string, ValueSource> = sourcesOf(link);
    const headers: Record<string, string> = { Accept: 'application/pdf' };
    if (this.ifNoneMatch !== 'none') {
      const tagVersion = this.ifNoneMatch === 'current' ? version : version - 1;
      headers['If-None-Match'] = entityTag(id, tagVersion);
      const idSource = sources['path.invoice_id'];
      if (idSource?.kind === 'answer')
        sources['header.If-None-Match'] = { kind: 'entity-tag', step: idSource.step, expression: idSource.expression, version: tagVersion };
    }
    const request: PreparedRequest = {
      operationId: 'getInvoicePdf',
      actor: 'mine',
      method: 'GET',
      template: '/api/v1/invoices/{invoice_id}/pdf',
      pathValues: { invoice_id: id },
      headers,
      body: undefined,
      sources,
    };
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const currentTag = entityTag(id, stored.version);
    if (this.ifNoneMatch === 'current') {
      const sent = await sendChecked(real, request, `304 no body (If-None-Match ${currentTag} is current)`);
      expect(sent.answer.status).toBe(304);
      expect(sent.answer.body).toBeUndefined();
      expect(sent.answer.etag).toBe(currentTag);
      return;
    }
    const sent = await sendChecked(real, request, `200 a PDF, ETag ${currentTag}`);
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.contentType).toMatch(/^application\/pdf\b/);
    expect(sent.answer.body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from((sent.answer.body as Uint8Array).subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(sent.answer.etag).toBe(currentTag);
  }
  toString(): string {
    return `getInvoicePdf(link ${this.pick}, If-None-Match ${this.ifNoneMatch})`;
  }
}

// ---------- attachments ----------

interface SampleFile {
  fileName: string;
  mediaType: string;
  bytes: Uint8Array;
  /** Whether the bytes are what the declared type says (a text declared a PDF is not). */
  valid: boolean;
}

const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));
const fromText = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** A few small files the upload draws from: two PDFs, a PNG, a JPEG, and a text that claims to be a PDF. */
export const sampleFiles: readonly SampleFile[] = [
  {
    fileName: 'order.pdf',
    mediaType: 'application/pdf',
    valid: true,
    bytes: fromText('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  },
  { fileName: 'receipt 2.pdf', mediaType: 'application/pdf', valid: true, bytes: fromText('%PDF-1.7\n% a receipt\n%%EOF\n') },
  {
    fileName: 'scan.png',
    mediaType: 'image/png',
    valid: true,
    bytes: fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  },
  {
    fileName: 'photo.jpg',
    mediaType: 'image/jpeg',
    valid: true,
    bytes: new Uint8Array(
      Buffer.from(
        'ffd8ffe000104a46494600010101004800480000ffdb004300030202020202030202020303030304060404040404080606050609080a0a090809090a0c0f0c0a0b0e0b09090d110d0e0f101011100a0c12131210130f101010ffc9000b080001000101011100ffcc000600101005ffda0008010100003f00d2cf20ffd9',
        'hex',
      ),
    ),
  },
  { fileName: 'notes.pdf', mediaType: 'application/pdf', valid: false, bytes: fromText('just some text, not a PDF\n') },
];

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function fileParts(file: SampleFile, note: string | null): FormPart[] {
  return [{ name: 'file', fileName: file.fileName, mediaType: file.mediaType, bytes: file.bytes }, ...(note === null ? [] : [{ name: 'note', value: note }])];
}

function attachmentsOf(model: Readonly<Model>, invoiceId: number): StoredAttachment[] {
  return model.attachments.get(invoiceId) ?? [];
}

class UploadAttachment implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly file: number,
    readonly note: string | null,
    readonly withKey: boolean,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'uploadInvoiceAttachment', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'uploadInvoiceAttachment', this.pick)!);
    const id = linkedId(link, 'invoice_id');
    const file = sampleFiles[this.file % sampleFiles.length]!;
    const key = this.withKey ? nextKey(model) : undefined;
    const request: PreparedRequest = {
      operationId: 'uploadInvoiceAttachment',
      actor: 'mine',
      method: 'POST',
      template: '/api/v1/invoices/{invoice_id}/attachments',
      pathValues: { invoice_id: id },
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      bodyKind: 'multipart',
      body: fileParts(file, this.note),
      sources: sourcesOf(link),
    };
    // The body is read (and a file that is not what it claims refused) before the invoice is looked up.
    if (!file.valid) {
      expectError(await sendChecked(real, request, '415 unsupported_media_type, nothing stored'), 415, 'unsupported_media_type');
      return;
    }
    if (!model.invoices.has(id)) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const sent = await sendChecked(real, request, `201 the attachment (${file.fileName}, sha256 ${sha256(file.bytes).slice(0, 12)}...)`);
    expect(sent.answer.status).toBe(201);
    const answered = (sent.answer.body as { attachment: Attachment }).attachment;
    const known = [...model.attachments.values()].flat().some((entry) => entry.attachment.id === answered.id);
    expect(known, 'a new attachment id').toBe(false);
    const expected: Attachment = {
      id: answered.id,
      invoice_id: id,
      file_name: file.fileName,
      media_type: file.mediaType as Attachment['media_type'],
      size: file.bytes.length,
      sha256: sha256(file.bytes),
      note: this.note ?? '',
      created_at: answered.created_at,
    };
    expect(sent.answer.body).toEqual({ attachment: expected });
    expect(sent.answer.location).toBe(`/api/v1/invoices/${id}/attachments/${answered.id}`);
    model.attachments.set(id, [...attachmentsOf(model, id), { attachment: expected, bytes: file.bytes }]);
    storeAnswer(model, key, sent);
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `uploadInvoiceAttachment(link ${this.pick}, ${sampleFiles[this.file % sampleFiles.length]!.fileName}, note ${JSON.stringify(this.note)}, key ${this.withKey})`;
  }
}

class ListAttachments implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'listInvoiceAttachments', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'listInvoiceAttachments', this.pick)!);
    const id = linkedId(link, 'invoice_id');
    const request: PreparedRequest = {
      operationId: 'listInvoiceAttachments',
      actor: 'mine',
      method: 'GET',
      template: '/api/v1/invoices/{invoice_id}/attachments',
      pathValues: { invoice_id: id },
      headers: {},
      body: undefined,
      sources: sourcesOf(link),
    };
    if (!model.invoices.has(id)) {
      expectError(await sendChecked(real, request, '404 not_found (removed)'), 404, 'not_found');
      return;
    }
    const expected = attachmentsOf(model, id).map((entry) => entry.attachment);
    const sent = await sendChecked(real, request, `200 ${expected.length} attachment(s) (ids ${expected.map((entry) => entry.id).join(',') || 'none'})`);
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.body).toEqual({ attachments: expected });
    harvest(model, sent.exchange, sent.step, sent.answer.request.sources);
  }
  toString(): string {
    return `listInvoiceAttachments(link ${this.pick})`;
  }
}

/** The invoice id a download or removal names: the link's, or (elsewhere) another known invoice's. */
function attachmentPath(
  model: Readonly<Model>,
  link: HarvestedLink,
  elsewhere: number | null,
): { invoiceId: number; attachmentId: number; sources: Record<string, ValueSource> } {
  const sources: Record<string, ValueSource> = sourcesOf(link);
  const attachmentId = linkedId(link, 'attachment_id');
  let invoiceId = linkedId(link, 'invoice_id');
  if (elsewhere !== null) {
    const others = linksTo(model, 'listInvoiceAttachments').filter((other) => linkedId(other, 'invoice_id') !== invoiceId);
    const other = others[elsewhere % Math.max(1, others.length)];
    if (other !== undefined) {
      invoiceId = linkedId(other, 'invoice_id');
      const source = sourcesOf(other)['path.invoice_id'];
      if (source === undefined) delete sources['path.invoice_id'];
      else sources['path.invoice_id'] = source;
    }
  }
  return { invoiceId, attachmentId, sources };
}

function storedAttachment(model: Readonly<Model>, invoiceId: number, attachmentId: number): StoredAttachment | undefined {
  if (!model.invoices.has(invoiceId)) return undefined;
  return attachmentsOf(model, invoiceId).find((entry) => entry.attachment.id === attachmentId);
}

class GetAttachment implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly elsewhere: number | null,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'getInvoiceAttachment', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const link = followed(pickLink(model, 'getInvoiceAttachment', this.pick)!);
    const { invoiceId, attachmentId, sources } = attachmentPath(model, link, this.elsewhere);
    const request: PreparedRequest = {
      operationId: 'getInvoiceAttachment',
      actor: 'mine',
      method: 'GET',
      template: '/api/v1/invoices/{invoice_id}/attachments/{attachment_id}',
      pathValues: { invoice_id: invoiceId, attachment_id: attachmentId },
      headers: { Accept: '*/*' },
      body: undefined,
      sources,
    };
    const stored = storedAttachment(model, invoiceId, attachmentId);
    if (stored === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed, or of another invoice)'), 404, 'not_found');
      return;
    }
    const { attachment } = stored;
    const sent = await sendChecked(
      real,
      request,
      `200 the bytes as uploaded (${attachment.media_type}, ${attachment.size} bytes, sha256 ${attachment.sha256.slice(0, 12)}...)`,
    );
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.contentType?.split(';')[0]).toBe(attachment.media_type);
    expect(sent.answer.body).toBeInstanceOf(Uint8Array);
    const bytes = sent.answer.body as Uint8Array;
    expect({ size: bytes.length, sha256: sha256(bytes) }).toEqual({ size: attachment.size, sha256: attachment.sha256 });
  }
  toString(): string {
    return `getInvoiceAttachment(link ${this.pick}${this.elsewhere === null ? '' : `, under another invoice ${this.elsewhere}`})`;
  }
}

class DeleteAttachment implements StatefulCommand {
  constructor(
    readonly pick: number,
    readonly elsewhere: number | null,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, 'getInvoiceAttachment', this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    // Borrowed from the download's link: no link leads to a removal.
    const link = pickLink(model, 'getInvoiceAttachment', this.pick)!;
    const { invoiceId, attachmentId, sources } = attachmentPath(model, link, this.elsewhere);
    const request: PreparedRequest = {
      operationId: 'deleteInvoiceAttachment',
      actor: 'mine',
      method: 'DELETE',
      template: '/api/v1/invoices/{invoice_id}/attachments/{attachment_id}',
      pathValues: { invoice_id: invoiceId, attachment_id: attachmentId },
      headers: {},
      body: undefined,
      sources,
    };
    if (storedAttachment(model, invoiceId, attachmentId) === undefined) {
      expectError(await sendChecked(real, request, '404 not_found (removed, or of another invoice)'), 404, 'not_found');
      return;
    }
    const sent = await sendChecked(real, request, '204 removed, no body');
    expect(sent.answer.status).toBe(204);
    expect(sent.answer.body).toBeUndefined();
    model.attachments.set(
      invoiceId,
      attachmentsOf(model, invoiceId).filter((entry) => entry.attachment.id !== attachmentId),
    );
  }
  toString(): string {
    return `deleteInvoiceAttachment(link ${this.pick}${this.elsewhere === null ? '' : `, under another invoice ${this.elsewhere}`})`;
  }
}

// ---------- export ----------

interface ExportDraft {
  criteria: Criterion[];
  orderBy: SortField | null;
  direction: 'asc' | 'desc' | null;
  /** No body at all (every invoice, newest first), rather than the drawn one. */
  noBody: boolean;
}

class ExportInvoices implements StatefulCommand {
  constructor(readonly draft: ExportDraft) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { draft } = this;
    const sources: Record<string, ValueSource> = {};
    const criteria = draft.criteria.map((criterion, index) => {
      if (criterion.field !== 'client_id') return criterion;
      const client = clientRef(model, criterion.value);
      sources[`body/criteria/${index}/value`] = client.source;
      return { ...criterion, value: client.id };
    });
    const body = draft.noBody
      ? undefined
      : {
          ...(draft.orderBy === null ? {} : { order_by: draft.orderBy }),
          ...(draft.direction === null ? {} : { order_direction: draft.direction }),
          ...(criteria.length === 0 ? {} : { criteria }),
        };
    const request: PreparedRequest = {
      operationId: 'exportInvoices',
      actor: 'mine',
      method: 'POST',
      template: '/api/v1/invoices/export',
      pathValues: {},
      headers: { Accept: 'text/csv' },
      body,
      sources: draft.noBody ? {} : sources,
    };
    const rows = searchResult(
      [...model.invoices.values()].map((entry) => entry.invoice),
      shapeOf(body ?? {}),
    );
    const sent = await sendChecked(real, request, `200 CSV of ${rows.length} invoice(s) (ids ${rows.map((invoice) => invoice.id).join(',') || 'none'})`);
    expect(sent.answer.status).toBe(200);
    expect(sent.answer.contentType).toMatch(/^text\/csv\b/);
    expect(typeof sent.answer.body).toBe('string');
    expect(parseCsv(sent.answer.body as string)).toEqual([exportColumns, ...rows.map(exportRow)]);
  }
  toString(): string {
    return `exportInvoices(${JSON.stringify(this.draft)})`;
  }
}

// ---------- idempotency ----------

class ReplayStoredAnswer implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return model.answers.length > 0;
  }
  async run(model: Model, real: Real): Promise<void> {
    const stored = model.answers[this.pick % model.answers.length]!;
    const sent = await sendChecked(real, stored.request, `${stored.status} the first answer again, Idempotent-Replayed: true`);
    expect(sent.answer.status).toBe(stored.status);
    expect(sent.answer.body).toEqual(stored.body);
    expect(sent.answer.location).toBe(stored.location);
    expect(sent.answer.replayed).toBe('true');
  }
  toString(): string {
    return `replay(stored answer ${this.pick})`;
  }
}

class ReuseKeyWithOtherBody implements StatefulCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return model.answers.length > 0;
  }
  async run(model: Model, real: Real): Promise<void> {
    const stored = model.answers[this.pick % model.answers.length]!;
    // A change the operation's schema accepts, so that the key, not validation, decides the answer.
    let changed: unknown;
    if (stored.operationId === 'uploadInvoiceAttachment') {
      // Another valid file under the same key.
      const parts = stored.request.body as FormPart[];
      const filePart = parts.find((part) => 'bytes' in part);
      const other = sampleFiles.find((file) => file.valid && filePart !== undefined && 'bytes' in filePart && file.fileName !== filePart.fileName)!;
      changed = parts.map((part) => ('bytes' in part ? { name: part.name, fileName: other.fileName, mediaType: other.mediaType, bytes: other.bytes } : part));
    } else {
      const original = stored.request.body as Record<string, unknown>;
      changed =
        stored.operationId === 'createInvoice'
          ? { ...original, description: `${String(original['description'] ?? '')} (another request)` }
          : { ...original, delivery_date: original['delivery_date'] === '2020-01-01' ? '2020-01-02' : '2020-01-01' };
    }
    const sent = await sendChecked(real, { ...stored.request, body: changed }, '422 idempotency_key_reused');
    expectError(sent, 422, 'idempotency_key_reused');
  }
  toString(): string {
    return `reuseKeyWithOtherBody(stored answer ${this.pick})`;
  }
}

// ---------- the other account ----------

/** What another account may try on this account's resources, and the links its ids come from. */
const foreignCalls = {
  getInvoice: { pool: 'getInvoice', method: 'GET', template: '/api/v1/invoices/{invoice_id}', body: undefined, accept: undefined },
  updateInvoice: {
    pool: 'updateInvoice',
    method: 'PATCH',
    template: '/api/v1/invoices/{invoice_id}',
    body: { description: 'written by another account' },
    accept: undefined,
  },
  deleteInvoice: { pool: 'updateInvoice', method: 'DELETE', template: '/api/v1/invoices/{invoice_id}', body: undefined, accept: undefined },
  getInvoicePdf: { pool: 'getInvoicePdf', method: 'GET', template: '/api/v1/invoices/{invoice_id}/pdf', body: undefined, accept: 'application/pdf' },
  listInvoiceAttachments: {
    pool: 'listInvoiceAttachments',
    method: 'GET',
    template: '/api/v1/invoices/{invoice_id}/attachments',
    body: undefined,
    accept: undefined,
  },
  getDelivery: { pool: 'getDelivery', method: 'GET', template: '/2.0/delivery/{delivery_id}', body: undefined, accept: undefined },
  updateDelivery: {
    pool: 'updateDelivery',
    method: 'PATCH',
    template: '/2.0/delivery/{delivery_id}',
    body: { delivery_date: '2020-02-02' },
    accept: undefined,
  },
  deleteDelivery: { pool: 'updateDelivery', method: 'DELETE', template: '/2.0/delivery/{delivery_id}', body: undefined, accept: undefined },
} as const satisfies Record<string, { pool: OperationId; method: string; template: string; body: unknown; accept: string | undefined }>;

type ForeignTarget = keyof typeof foreignCalls;
const foreignTargets = Object.keys(foreignCalls) as ForeignTarget[];

/** A call by another account: always 404, and nothing changes (the model stays as it is; later calls check). */
class ForeignCall implements StatefulCommand {
  constructor(
    readonly target: ForeignTarget,
    readonly pick: number,
  ) {}
  check(model: Readonly<Model>): boolean {
    return pickLink(model, foreignCalls[this.target].pool, this.pick) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const call = foreignCalls[this.target];
    const picked = pickLink(model, call.pool, this.pick)!;
    const link = call.pool === this.target ? followed(picked) : picked;
    const name = call.template.includes('{invoice_id}') ? 'invoice_id' : 'delivery_id';
    const id = linkedId(link, name);
    const sources = sourcesOf(link);
    delete sources['header.If-Match'];
    const sent = await sendChecked(
      real,
      {
        operationId: this.target,
        actor: 'theirs',
        method: call.method,
        template: call.template,
        pathValues: { [name]: id },
        headers: call.accept === undefined ? {} : { Accept: call.accept },
        body: call.body,
        sources,
      },
      '404 not_found (another account)',
    );
    expectError(sent, 404, 'not_found');
  }
  toString(): string {
    return `${this.target} by another account(link ${this.pick})`;
  }
}

// ---------- arbitraries ----------

const pick = fc.nat({ max: 1_000 });
const clientIndex = fc.constantFrom(0, 1);
const lineArbitrary: fc.Arbitrary<LineInput> = fc.record({
  item_id: fc.integer({ min: 1, max: 5 }),
  quantityThousandths: fc.constantFrom(1_000, 2_500, 333, 1),
  unitPriceTenThousandths: fc.constantFrom(100_000, 12_345, 5, 0, 99_999),
});
const linesArbitrary = (min: number) => fc.array(lineArbitrary, { minLength: min, maxLength: 3 });
const ifMatchArbitrary = fc.constantFrom<IfMatchChoice>('none', 'link', 'current', 'stale', 'any');
const criterionArbitrary: fc.Arbitrary<Criterion> = fc.oneof(
  fc.record({ field: fc.constant('status' as const), operator: fc.constant('=' as const), value: fc.constantFrom(...statuses) }),
  fc.record({
    field: fc.constant('status' as const),
    operator: fc.constant('in' as const),
    value: fc.uniqueArray(fc.constantFrom(...statuses), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ field: fc.constant('amount' as const), operator: fc.constantFrom('>=' as const, '<' as const), value: fc.constantFrom(...amounts) }),
  fc.record({
    field: fc.constant('amount' as const),
    operator: fc.constant('between' as const),
    value: fc.tuple(fc.constantFrom(...amounts), fc.constantFrom(...amounts)).map(([a, b]): [number, number] => [Math.min(a, b), Math.max(a, b)]),
  }),
  fc.record({ field: fc.constant('client_id' as const), operator: fc.constantFrom('=' as const, '!=' as const), value: clientIndex }),
  fc.record({ field: fc.constant('currency' as const), operator: fc.constant('=' as const), value: fc.constantFrom(...currencies) }),
  fc.record({ field: fc.constant('description' as const), operator: fc.constant('like' as const), value: fc.constantFrom('beta', 'ALPHA', 'a') }),
  fc.record({
    field: fc.constant('due_date' as const),
    operator: fc.constant('between' as const),
    value: fc.tuple(fc.constantFrom(...dates), fc.constantFrom(...dates)).map(([a, b]): [string, string] => (a <= b ? [a, b] : [b, a])),
  }),
);

/** Every command the run draws from, failing ones included; the weights favour writes and reads by link. */
export function commandArbitraries(): Array<fc.Arbitrary<StatefulCommand>> {
  const invoiceDraft: fc.Arbitrary<InvoiceDraft> = fc.record({
    client: clientIndex,
    amount: fc.constantFrom(...amounts),
    currency: fc.constantFrom(...currencies),
    due_date: fc.constantFrom(...dates),
    description: fc.option(fc.constantFrom(...descriptions)),
    status: fc.option(fc.constantFrom('draft' as const, 'sent' as const)),
    invoice_number: fc.option(fc.constantFrom(...invoiceNumbers), { freq: 3 }),
    flaw: fc.constantFrom<CreateFlaw>('none', 'none', 'none', 'none', 'foreign-client', 'three-decimals', 'paid-status'),
    withKey: fc.boolean(),
  });
  const invoicePatch: fc.Arbitrary<InvoicePatch> = fc.record({
    fields: fc.record(
      {
        status: fc.constantFrom(...statuses),
        description: fc.constantFrom(...descriptions),
        amount: fc.constantFrom(...amounts),
        due_date: fc.constantFrom(...dates),
        client: clientIndex,
      },
      { requiredKeys: [] },
    ),
    flaw: fc.constantFrom<InvoicePatchFlaw>('none', 'none', 'none', 'none', 'none', 'null-amount', 'read-only-id', 'unknown-status'),
  });
  const deliveryDraft: fc.Arbitrary<DeliveryDraft> = fc.record({
    client: clientIndex,
    date: fc.option(fc.constantFrom(...dates)),
    lines: fc.option(linesArbitrary(0)),
    flaw: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'foreign-contact' as const),
    withKey: fc.boolean(),
  });
  const deliveryPatch: fc.Arbitrary<DeliveryPatch> = fc.record({
    client: fc.option(clientIndex),
    date: fc.option(fc.constantFrom(...dates)),
    lines: fc.option(linesArbitrary(0)),
    flaw: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'foreign-contact' as const),
  });
  const issueDraft: fc.Arbitrary<IssueDraft> = fc.record({
    lines: fc.oneof({ weight: 6, arbitrary: linesArbitrary(1) }, { weight: 1, arbitrary: fc.constant<LineInput[]>([]) }),
    date: fc.option(fc.constantFrom(...dates)),
    contact: fc.constantFrom<IssueDraft['contact']>('link', 'link', 'link', 0, 1, 'foreign'),
    withKey: fc.boolean(),
  });
  const searchDraft: fc.Arbitrary<SearchDraft> = fc.record({
    criteria: fc.array(criterionArbitrary, { maxLength: 2 }),
    orderBy: fc.constantFrom<SortField>('id', 'invoice_number', 'client_id', 'amount', 'status', 'due_date', 'created_at', 'updated_at'),
    direction: fc.constantFrom('asc' as const, 'desc' as const),
    limit: fc.integer({ min: 1, max: 3 }),
    offset: fc.constantFrom(0, 0, 0, 1, 3),
  });
  const exportDraft: fc.Arbitrary<ExportDraft> = fc.record({
    criteria: fc.array(criterionArbitrary, { maxLength: 2 }),
    orderBy: fc.option(fc.constantFrom<SortField>('id', 'invoice_number', 'client_id', 'amount', 'status', 'due_date', 'created_at', 'updated_at')),
    direction: fc.option(fc.constantFrom('asc' as const, 'desc' as const)),
    noBody: fc.constantFrom(false, false, false, true),
  });
  const elsewhere = fc.option(pick, { freq: 4 });
  const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
  return [
    fc.oneof(
      weighted(
        5,
        invoiceDraft.map((draft) => new CreateInvoice(draft)),
      ),
      weighted(
        3,
        pick.map((index) => new GetInvoice(index)),
      ),
      weighted(
        6,
        fc.tuple(pick, invoicePatch, ifMatchArbitrary).map(([index, patch, ifMatch]) => new UpdateInvoice(index, patch, ifMatch)),
      ),
      weighted(
        4,
        searchDraft.map((draft) => new SearchInvoices(draft)),
      ),
      weighted(
        3,
        pick.map((index) => new FollowSearchLink(index)),
      ),
      weighted(1, fc.constant(new ListCompanyClients())),
      weighted(
        1,
        pick.map((index) => new GetCompanyClient(index)),
      ),
      weighted(
        4,
        deliveryDraft.map((draft) => new CreateDelivery(draft)),
      ),
      weighted(
        3,
        pick.map((index) => new GetDelivery(index)),
      ),
      weighted(
        4,
        fc.tuple(pick, deliveryPatch, ifMatchArbitrary).map(([index, patch, ifMatch]) => new UpdateDelivery(index, patch, ifMatch)),
      ),
      weighted(
        4,
        fc.tuple(pick, issueDraft).map(([index, draft]) => new IssueDelivery(index, draft)),
      ),
      weighted(
        1,
        fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, 1)).map(([limit, offset]) => new ListDeliveries(limit, offset)),
      ),
      weighted(
        2,
        fc.tuple(pick, ifMatchArbitrary).map(([index, ifMatch]) => new DeleteInvoice(index, ifMatch)),
      ),
      weighted(
        2,
        fc.tuple(pick, ifMatchArbitrary).map(([index, ifMatch]) => new DeleteDelivery(index, ifMatch)),
      ),
      weighted(
        2,
        fc.tuple(pick, fc.constantFrom<IfNoneMatchChoice>('none', 'current', 'stale')).map(([index, condition]) => new GetInvoicePdf(index, condition)),
      ),
      weighted(
        3,
        fc
          .tuple(pick, fc.nat({ max: sampleFiles.length - 1 }), fc.option(fc.constantFrom('signed order', '=1+1', '')), fc.boolean())
          .map(([index, file, note, withKey]) => new UploadAttachment(index, file, note, withKey)),
      ),
      weighted(
        2,
        pick.map((index) => new ListAttachments(index)),
      ),
      weighted(
        2,
        fc.tuple(pick, elsewhere).map(([index, other]) => new GetAttachment(index, other)),
      ),
      weighted(
        1,
        fc.tuple(pick, elsewhere).map(([index, other]) => new DeleteAttachment(index, other)),
      ),
      weighted(
        2,
        exportDraft.map((draft) => new ExportInvoices(draft)),
      ),
      weighted(
        3,
        pick.map((index) => new ReplayStoredAnswer(index)),
      ),
      weighted(
        2,
        pick.map((index) => new ReuseKeyWithOtherBody(index)),
      ),
      weighted(
        2,
        fc.tuple(fc.constantFrom(...foreignTargets), pick).map(([target, index]) => new ForeignCall(target, index)),
      ),
    ),
  ];
}
