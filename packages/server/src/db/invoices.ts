// Invoice rows of one account: read, insert (with a given or the next generated number), lock for
// update, update.
import { sql, type Kysely } from 'kysely';
import { invoiceNumberFormat } from '../domain/invoice-rules.js';
import { nextNumberUpdate } from './accounts.js';
import { compileOnly } from './compile-only.js';
import { templateOf } from './statement-template.js';
import type { DatabaseSchema, InvoiceRow, NewInvoiceRow } from './schema.js';

export type InvoiceRecord = Omit<InvoiceRow, 'account_id'>;

/** The unique constraint behind "invoice_number is unique within the account". */
export const invoiceNumberConstraint = 'invoices_account_id_invoice_number_key';

const columns = [
  'id',
  'invoice_number',
  'client_id',
  'client_name',
  'amount',
  'currency',
  'status',
  'due_date',
  'created_at',
  'updated_at',
  'description',
  'version',
] as const;

// The statements of the hot paths (the read by id, a create under a generated number, an update's
// lock) are templates compiled once (statement-template.ts) and bound per request.

const findInvoiceStatement = templateOf(['accountId', 'invoiceId'], ({ accountId, invoiceId }) =>
  compileOnly.selectFrom('invoices').select(columns).where('account_id', '=', sql<number>`${accountId}`).where('id', '=', sql<number>`${invoiceId}`),
);

export async function findInvoice(db: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<InvoiceRecord | undefined> {
  const { rows } = await db.executeQuery(findInvoiceStatement.bind({ accountId, invoiceId }));
  return rows[0];
}

const findInvoiceDocumentStatement = templateOf(['accountId', 'invoiceId'], ({ accountId, invoiceId }) =>
  compileOnly
    .selectFrom('invoices')
    .innerJoin('accounts', 'accounts.id', 'invoices.account_id')
    .select(columns.map((column) => `invoices.${column}` as const))
    .select('accounts.name as account_name')
    .where('invoices.account_id', '=', sql<number>`${accountId}`)
    .where('invoices.id', '=', sql<number>`${invoiceId}`),
);

/** An invoice with the name of the account that issued it: what its document (the PDF) shows. */
export type InvoiceDocumentRecord = InvoiceRecord & { account_name: string };

/** Reads the invoice and its account's name in one statement. */
export async function findInvoiceDocument(db: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<InvoiceDocumentRecord | undefined> {
  const { rows } = await db.executeQuery(findInvoiceDocumentStatement.bind({ accountId, invoiceId }));
  return rows[0];
}

const lockInvoiceStatement = templateOf(['accountId', 'invoiceId'], ({ accountId, invoiceId }) =>
  compileOnly
    .selectFrom('invoices')
    .select(columns)
    .where('account_id', '=', sql<number>`${accountId}`)
    .where('id', '=', sql<number>`${invoiceId}`)
    .forUpdate(),
);

/** Reads the invoice and locks its row until the transaction ends, so concurrent updates queue. */
export async function lockInvoice(trx: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<InvoiceRecord | undefined> {
  const { rows } = await trx.executeQuery(lockInvoiceStatement.bind({ accountId, invoiceId }));
  return rows[0];
}

/** An invoice's values but its number, which insertWithNextNumber generates. */
export type UnnumberedInvoice = Required<Omit<NewInvoiceRow, 'id' | 'invoice_number' | 'created_at' | 'updated_at' | 'version'>>;

/** What one attempt to insert under the next generated number did. */
export type NumberedInsert =
  | { inserted: InvoiceRecord }
  /** The number taken was already used (given by hand); the counter has still moved past it. */
  | { inserted: undefined; taken: number };

const insertWithNextNumberStatement = templateOf(
  ['account_id', 'prefix', 'digits', 'client_id', 'client_name', 'amount', 'currency', 'status', 'due_date', 'description'],
  ({ account_id: accountId, prefix, digits, client_id: clientId, client_name: clientName, amount, currency, status, due_date: dueDate, description }) =>
    compileOnly
      .with('number', (db) => nextNumberUpdate(db, sql<number>`${accountId}`, 'next_invoice_number'))
      .with('inserted', (db) =>
        db
          .insertInto('invoices')
          .columns(['account_id', 'invoice_number', 'client_id', 'client_name', 'amount', 'currency', 'status', 'due_date', 'description'])
          .expression((eb) =>
            eb.selectFrom('number').select([
              eb.val(accountId).as('account_id'),
              // formatInvoiceNumber in SQL: padded to `digits`, never cut (lpad would cut longer numbers).
              sql<string>`${prefix}::text || lpad(taken::text, greatest(${digits}::integer, length(taken::text)), '0')`.as('invoice_number'),
              eb.val(clientId).as('client_id'),
              eb.val(clientName).as('client_name'),
              eb.val(amount).as('amount'),
              eb.val(currency).as('currency'),
              eb.val(status).as('status'),
              eb.val(dueDate).as('due_date'),
              eb.val(description).as('description'),
            ]),
          )
          .onConflict((conflict) => conflict.constraint(invoiceNumberConstraint).doNothing())
          .returning(columns),
      )
      .selectFrom('number')
      .leftJoin('inserted', (join) => join.onTrue())
      .select('number.taken')
      .selectAll('inserted'),
);

/**
 * Takes the account's next invoice number and inserts the invoice under it, in one statement: the
 * counter's UPDATE locks the account row until the transaction ends, so every round trip after it
 * makes each concurrent create of the account wait longer; this one ends the numbering. A number
 * already used (an imported `INV-000007`, or one given by hand in a transaction still running, whose
 * outcome ON CONFLICT waits for) inserts nothing: the caller tries again with the next one.
 * Undefined when the account does not exist.
 */
export async function insertWithNextNumber(trx: Kysely<DatabaseSchema>, values: UnnumberedInvoice): Promise<NumberedInsert | undefined> {
  const { prefix, digits } = invoiceNumberFormat;
  const { rows } = await trx.executeQuery(insertWithNextNumberStatement.bind({ ...values, prefix, digits }));
  const row = rows[0];
  if (row === undefined) return undefined;
  const { taken, ...invoice } = row;
  return invoice.id === null ? { inserted: undefined, taken } : { inserted: invoice as InvoiceRecord };
}

export function insertInvoice(trx: Kysely<DatabaseSchema>, values: NewInvoiceRow): Promise<InvoiceRecord> {
  return trx.insertInto('invoices').values(values).returning(columns).executeTakeFirstOrThrow();
}

export type InvoiceColumnChanges = Partial<
  Pick<NewInvoiceRow, 'invoice_number' | 'client_id' | 'client_name' | 'amount' | 'currency' | 'status' | 'due_date' | 'description'>
>;

/**
 * Writes `changes` and moves updated_at: to now, and always forward by at least a millisecond, so a
 * client comparing timestamps sees every change even when two land within one millisecond; and the
 * version (the ETag's) by one.
 */
export function updateInvoice(trx: Kysely<DatabaseSchema>, accountId: number, invoiceId: number, changes: InvoiceColumnChanges): Promise<InvoiceRecord> {
  return trx
    .updateTable('invoices')
    .set({ ...changes, updated_at: sql<string>`greatest(now(), updated_at + interval '1 millisecond')`, version: sql<number>`version + 1` })
    .where('account_id', '=', accountId)
    .where('id', '=', invoiceId)
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** Removes the invoice (its row is locked already); the triggers move the kept counts and the account's invoices_version. */
export async function deleteInvoiceRow(trx: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<void> {
  await trx.deleteFrom('invoices').where('account_id', '=', accountId).where('id', '=', invoiceId).execute();
}
