// Invoice rows of one account: read, insert, lock for update, update.
import { sql, type Kysely } from 'kysely';
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

export function findInvoice(db: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<InvoiceRecord | undefined> {
  return db.selectFrom('invoices').select(columns).where('account_id', '=', accountId).where('id', '=', invoiceId).executeTakeFirst();
}

/** Reads the invoice and locks its row until the transaction ends, so concurrent updates queue. */
export function lockInvoice(trx: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<InvoiceRecord | undefined> {
  return trx.selectFrom('invoices').select(columns).where('account_id', '=', accountId).where('id', '=', invoiceId).forUpdate().executeTakeFirst();
}

export function invoiceNumberTaken(db: Kysely<DatabaseSchema>, accountId: number, invoiceNumber: string): Promise<boolean> {
  return db
    .selectFrom('invoices')
    .select('id')
    .where('account_id', '=', accountId)
    .where('invoice_number', '=', invoiceNumber)
    .executeTakeFirst()
    .then((row) => row !== undefined);
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
