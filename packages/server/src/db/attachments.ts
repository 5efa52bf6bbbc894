// The files kept with invoices (table invoice_attachments, migration 0008). Every query names the
// account: an invoice or attachment of another account is not found, as a missing one. Only the
// download reads the bytes; listing and the upload's answer leave the `content` column unread.
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema, InvoiceAttachmentsTable } from './schema.js';

type AttachmentRow = Selectable<InvoiceAttachmentsTable>;

/** An attachment as the API shows it: everything but the account and the bytes. */
export type AttachmentRecord = Omit<AttachmentRow, 'account_id' | 'content'>;

/** An attachment with its bytes, for the download. */
export type AttachmentFile = AttachmentRecord & { content: Uint8Array };

export type NewAttachment = Omit<AttachmentRow, 'id' | 'created_at'>;

const recordColumns = ['id', 'invoice_id', 'file_name', 'media_type', 'size', 'sha256', 'note', 'created_at'] as const;

/** How many attachments one invoice keeps at most (the list's `maxItems`). */
export const attachmentsPerInvoice = 100;

/**
 * Locks the invoice's row against other uploads to it until the transaction ends, so that two uploads
 * cannot both see room for one more file. FOR NO KEY UPDATE: it queues behind an update of the invoice
 * (FOR UPDATE) as such an update queues behind it, and leaves alone what only reads the row or checks
 * a foreign key to it. Only the invoice is locked, never the account after it: no lock order to keep
 * with the invoice writes, which lock the account first (db/accounts.ts). False: no such invoice.
 */
export async function lockInvoiceForAttachment(trx: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<boolean> {
  const row = await trx.selectFrom('invoices').select('id').where('account_id', '=', accountId).where('id', '=', invoiceId).forNoKeyUpdate().executeTakeFirst();
  return row !== undefined;
}

/** True when the account has that invoice. */
export async function invoiceExists(db: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<boolean> {
  const row = await db.selectFrom('invoices').select('id').where('account_id', '=', accountId).where('id', '=', invoiceId).executeTakeFirst();
  return row !== undefined;
}

/** How many files the invoice keeps (its row locked by the caller). */
export async function countAttachments(trx: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<number> {
  const row = await trx
    .selectFrom('invoice_attachments')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertAttachment(trx: Kysely<DatabaseSchema>, values: NewAttachment): Promise<AttachmentRecord> {
  return trx.insertInto('invoice_attachments').values(values).returning(recordColumns).executeTakeFirstOrThrow();
}

/** The invoice's attachments in the order they were attached, without their bytes. */
export function listAttachments(db: Kysely<DatabaseSchema>, accountId: number, invoiceId: number): Promise<AttachmentRecord[]> {
  return db
    .selectFrom('invoice_attachments')
    .select(recordColumns)
    .where('account_id', '=', accountId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .limit(attachmentsPerInvoice)
    .execute();
}

/** One attachment of the invoice, with its bytes; undefined when the account has no such invoice or it no such file. */
export function findAttachmentFile(
  db: Kysely<DatabaseSchema>,
  accountId: number,
  invoiceId: number,
  attachmentId: number,
): Promise<AttachmentFile | undefined> {
  return db
    .selectFrom('invoice_attachments')
    .select([...recordColumns, 'content'])
    .where('account_id', '=', accountId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
}

/** Removes one attachment of the invoice; false when there was none to remove. */
export async function deleteAttachment(db: Kysely<DatabaseSchema>, accountId: number, invoiceId: number, attachmentId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('invoice_attachments')
    .where('account_id', '=', accountId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
