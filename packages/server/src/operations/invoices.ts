// Invoice operations: search, read, create, update. Thin: the spec has validated shapes, the domain
// decides the rules, db/ reads and writes; this file orders the steps and shapes the answers.
import { operationTable, type Handler, type InvoiceCreate } from '@invoice-api/contract';
import type { Kysely } from 'kysely';
import type { RequestContext } from '../context.js';
import { findCompanyClient } from '../db/directory.js';
import { isUniqueViolation } from '../db/errors.js';
import { takeNextNumber } from '../db/accounts.js';
import {
  findInvoice,
  insertInvoice,
  invoiceNumberConstraint,
  invoiceNumberTaken,
  lockInvoice,
  updateInvoice as writeInvoiceChanges,
  type InvoiceColumnChanges,
  type InvoiceRecord,
} from '../db/invoices.js';
import { toInvoice } from '../db/mappers.js';
import type { DatabaseSchema } from '../db/schema.js';
import { formatInvoiceNumber, planInvoiceUpdate } from '../domain/invoice-rules.js';
import { ApiError } from '../errors.js';
import { writeOnce } from '../idempotency/index.js';
import { assertIfMatch, entityTag } from '../preconditions/index.js';
import { parseSearchRequest, searchInvoices as runSearch } from '../search/index.js';
import { accountOf, locationOf } from './caller.js';

/** Generated numbers skip any taken by hand, e.g. an imported `INV-000007`; this bounds the skipping. */
const maxGeneratedNumberAttempts = 1_000;

function notFound(invoiceId: number): ApiError {
  return ApiError.notFound(`Invoice ${invoiceId} not found.`);
}

function duplicateNumber(invoiceNumber: string): ApiError {
  return ApiError.conflict('conflict', `Invoice number '${invoiceNumber}' is already used in this account.`, {
    field: 'invoice_number',
    issue: 'is already used by another invoice of the account',
  });
}

async function clientName(db: Kysely<DatabaseSchema>, accountId: number, clientId: number): Promise<string> {
  const client = await findCompanyClient(db, accountId, clientId);
  if (client === undefined) {
    throw ApiError.invalid('client_id', 'must name a company client of your account', `Company client ${clientId} does not exist in your account.`);
  }
  return client.name;
}

/** The next free generated number; the counter row stays locked by this transaction until it ends. */
async function generateInvoiceNumber(trx: Kysely<DatabaseSchema>, accountId: number): Promise<string> {
  for (let attempt = 0; attempt < maxGeneratedNumberAttempts; attempt += 1) {
    const candidate = formatInvoiceNumber(await takeNextNumber(trx, accountId, 'next_invoice_number'));
    if (!(await invoiceNumberTaken(trx, accountId, candidate))) return candidate;
  }
  throw new Error(`No free invoice number after ${maxGeneratedNumberAttempts} attempts in account ${accountId}`);
}

export const searchInvoices: Handler<'searchInvoices', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  // The spec checks the body's shape; the allow-list (operators per field, value types) is checked here.
  const search = parseSearchRequest(request.body);
  return { status: 200, body: await runSearch(context.db, accountId, search) };
};

export const getInvoice: Handler<'getInvoice', RequestContext> = async (request, context) => {
  const invoice = await findInvoice(context.db.db, accountOf(context), request.params.invoice_id);
  if (invoice === undefined) throw notFound(request.params.invoice_id);
  return { status: 200, headers: { ETag: entityTag(invoice.id, invoice.version) }, body: { invoice: toInvoice(invoice) } };
};

/** Client check, number (given or generated), insert; in the caller's transaction. */
async function insertNewInvoice(trx: Kysely<DatabaseSchema>, accountId: number, body: InvoiceCreate): Promise<InvoiceRecord> {
  const name = await clientName(trx, accountId, body.client_id);
  const invoiceNumber = body.invoice_number ?? (await generateInvoiceNumber(trx, accountId));
  return insertInvoice(trx, {
    account_id: accountId,
    invoice_number: invoiceNumber,
    client_id: body.client_id,
    client_name: name,
    amount: body.amount,
    currency: body.currency,
    status: body.status ?? 'draft',
    due_date: body.due_date,
    description: body.description ?? '',
  });
}

export const createInvoice: Handler<'createInvoice', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const body = request.body;
  // A generated number can still lose a race against a hand-given one inserted meanwhile; then the
  // whole transaction (the idempotency key's claim included) is simply run again with the next number.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await writeOnce(context, async (trx) => {
        const invoice = await insertNewInvoice(trx, accountId, body);
        return {
          status: 201 as const,
          headers: { Location: locationOf(operationTable.getInvoice.path, invoice.id) },
          body: { invoice: toInvoice(invoice) },
        };
      });
    } catch (error) {
      if (!isUniqueViolation(error, invoiceNumberConstraint)) throw error;
      if (body.invoice_number !== undefined) throw duplicateNumber(body.invoice_number);
      if (attempt >= 3) throw error;
    }
  }
};

export const updateInvoice: Handler<'updateInvoice', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const invoiceId = request.params.invoice_id;
  try {
    const invoice = await context.db.db.transaction().execute(async (trx) => {
      const current = await lockInvoice(trx, accountId, invoiceId);
      if (current === undefined) throw notFound(invoiceId);
      // Under the row lock: no other update can land between this check and the write.
      assertIfMatch(context.ifMatch, entityTag(current.id, current.version), `Invoice ${invoiceId}`);
      const changes = planInvoiceUpdate(current, request.body);
      if (Object.keys(changes).length === 0) return current;
      const columns: InvoiceColumnChanges = { ...changes };
      if (changes.client_id !== undefined) columns.client_name = await clientName(trx, accountId, changes.client_id);
      return writeInvoiceChanges(trx, accountId, invoiceId, columns);
    });
    return { status: 200, headers: { ETag: entityTag(invoice.id, invoice.version) }, body: { invoice: toInvoice(invoice) } };
  } catch (error) {
    if (request.body.invoice_number !== undefined && isUniqueViolation(error, invoiceNumberConstraint)) throw duplicateNumber(request.body.invoice_number);
    throw error;
  }
};
