// Invoice operations: search, read, create, update. Thin: the spec has validated shapes, the domain
// decides the rules, db/ reads and writes; this file orders the steps and shapes the answers.
import { operationTable, type Handler, type InvoiceCreate } from '@invoice-api/contract';
import type { Kysely } from 'kysely';
import type { RequestContext } from '../context.js';
import { lockAccountForInvoiceWrite } from '../db/accounts.js';
import { findCompanyClient } from '../db/directory.js';
import { isUniqueViolation } from '../db/errors.js';
import {
  findInvoice,
  insertInvoice,
  insertWithNextNumber,
  deleteInvoiceRow,
  invoiceNumberConstraint,
  lockInvoice,
  updateInvoice as writeInvoiceChanges,
  type InvoiceColumnChanges,
  type InvoiceRecord,
  type UnnumberedInvoice,
} from '../db/invoices.js';
import { toInvoice } from '../db/mappers.js';
import type { DatabaseSchema } from '../db/schema.js';
import { assertRemovable, planInvoiceUpdate } from '../domain/invoice-rules.js';
import { ApiError } from '../errors.js';
import { writeOnce } from '../idempotency/index.js';
import { assertIfMatch, entityTag, lockForCondition } from '../preconditions/index.js';
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

/**
 * Inserts under the next free generated number. From the first attempt on, the account's counter row
 * stays locked by this transaction until it ends: callers do everything that does not need the number
 * before this, and as little as possible after it.
 */
async function insertGenerated(trx: Kysely<DatabaseSchema>, values: UnnumberedInvoice): Promise<InvoiceRecord> {
  for (let attempt = 0; attempt < maxGeneratedNumberAttempts; attempt += 1) {
    const result = await insertWithNextNumber(trx, values);
    if (result === undefined) throw new Error(`Account ${values.account_id} does not exist`);
    if (result.inserted !== undefined) return result.inserted;
  }
  throw new Error(`No free invoice number after ${maxGeneratedNumberAttempts} attempts in account ${values.account_id}`);
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

/** Client check, then the insert under the given or the next generated number; in the caller's transaction. */
async function insertNewInvoice(trx: Kysely<DatabaseSchema>, accountId: number, body: InvoiceCreate): Promise<InvoiceRecord> {
  const values: UnnumberedInvoice = {
    account_id: accountId,
    client_id: body.client_id,
    client_name: await clientName(trx, accountId, body.client_id),
    amount: body.amount,
    currency: body.currency,
    status: body.status ?? 'draft',
    due_date: body.due_date,
    description: body.description ?? '',
  };
  if (body.invoice_number === undefined) return insertGenerated(trx, values);
  // A given number that is taken fails the insert (unique violation: 409 below). The account first:
  // see lockAccountForInvoiceWrite.
  await lockAccountForInvoiceWrite(trx, accountId);
  return insertInvoice(trx, { ...values, invoice_number: body.invoice_number });
}

export const createInvoice: Handler<'createInvoice', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const body = request.body;
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
    // Only a given number can collide: a generated one moves on to the next instead (ON CONFLICT).
    if (body.invoice_number !== undefined && isUniqueViolation(error, invoiceNumberConstraint)) throw duplicateNumber(body.invoice_number);
    throw error;
  }
};

export const updateInvoice: Handler<'updateInvoice', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const invoiceId = request.params.invoice_id;
  try {
    const invoice = await context.db.db.transaction().execute(async (trx) => {
      // The account before the invoice, as every invoice write (see lockAccountForInvoiceWrite).
      await lockAccountForInvoiceWrite(trx, accountId);
      const current = await lockForCondition('invoice', context.ifMatch, () => lockInvoice(trx, accountId, invoiceId));
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

export const deleteInvoice: Handler<'deleteInvoice', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const invoiceId = request.params.invoice_id;
  await context.db.db.transaction().execute(async (trx) => {
    // The account before the invoice, as every invoice write (see lockAccountForInvoiceWrite).
    await lockAccountForInvoiceWrite(trx, accountId);
    const current = await lockForCondition('invoice', context.ifMatch, () => lockInvoice(trx, accountId, invoiceId));
    if (current === undefined) throw notFound(invoiceId);
    // Under the row lock, before the state check: a stale If-Match is 412 whatever the status.
    assertIfMatch(context.ifMatch, entityTag(current.id, current.version), `Invoice ${invoiceId}`);
    assertRemovable(current);
    await deleteInvoiceRow(trx, accountId, invoiceId);
  });
  return { status: 204 };
};
