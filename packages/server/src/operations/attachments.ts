// The files kept with an invoice: upload, list, download, remove. By the time a handler runs, the
// multipart step (http/multipart-body.ts) has refused a file of a type the spec does not list, whose
// first bytes are not what its type claims, or over 10 MiB, and the validator a note over 500
// characters; what is left here is the account, the invoice, the file's name and the per-invoice limit.
import { createHash } from 'node:crypto';
import { operationTable, type Attachment, type Handler } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import {
  attachmentsPerInvoice,
  countAttachments,
  deleteAttachment,
  findAttachmentFile,
  insertAttachment,
  invoiceExists,
  listAttachments,
  lockInvoiceForAttachment,
  type AttachmentRecord,
} from '../db/attachments.js';
import { ApiError } from '../errors.js';
import { attachmentDisposition } from '../http/content-disposition.js';
import { writeOnce } from '../idempotency/index.js';
import { accountOf } from './caller.js';

type MediaType = Attachment['media_type'];

/** The media types a file is kept as: the Attachment schema's enum, which the upload's encoding lists too. */
const mediaTypes: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg'] satisfies readonly MediaType[];

/** The Attachment schema's bounds on `file_name`, in characters (code points, as PostgreSQL counts them). */
const fileNameLength = { min: 1, max: 255 };

function invoiceNotFound(invoiceId: number): ApiError {
  return ApiError.notFound(`Invoice ${invoiceId} not found.`);
}

/**
 * The 404 of a download or removal that found nothing: the invoice's, as for any invoice path, when the
 * account has no such invoice (another account's is missing alike), else the attachment's. Only asked
 * after a miss, so a found file costs one query.
 */
async function attachmentNotFound(context: RequestContext, invoiceId: number, attachmentId: number): Promise<ApiError> {
  if (!(await invoiceExists(context.db.db, accountOf(context), invoiceId))) return invoiceNotFound(invoiceId);
  return ApiError.notFound(`Attachment ${attachmentId} of invoice ${invoiceId} not found.`);
}

function toAttachment(row: AttachmentRecord): Attachment {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    file_name: row.file_name,
    media_type: row.media_type,
    size: row.size,
    sha256: row.sha256,
    note: row.note,
    created_at: row.created_at,
  };
}

/** The download's path, from the operation table's template. */
function attachmentPath(invoiceId: number, attachmentId: number): string {
  return operationTable.getInvoiceAttachment.path.replace('{invoice_id}', String(invoiceId)).replace('{attachment_id}', String(attachmentId));
}

/**
 * The name as sent must fit the schema (1 to 255 characters) and a text column (no NUL, which
 * PostgreSQL text cannot hold): the multipart step does not look at names, the validator does not see
 * them (a file part is a File to it).
 */
function checkFileName(name: string): void {
  const length = [...name].length;
  if (length < fileNameLength.min || length > fileNameLength.max) {
    throw ApiError.invalid(
      'file',
      `must have a filename of ${fileNameLength.min} to ${fileNameLength.max} characters`,
      `The file's name must be ${fileNameLength.min} to ${fileNameLength.max} characters long; it is ${length}.`,
    );
  }
  if (name.includes('\u0000')) {
    throw ApiError.invalid('file', 'must have a filename without NUL characters', "The file's name must not contain a NUL character (U+0000).");
  }
}

function isMediaType(type: string): type is MediaType {
  return mediaTypes.includes(type);
}

export const uploadInvoiceAttachment: Handler<'uploadInvoiceAttachment', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const invoiceId = request.params.invoice_id;
  const { file, note = '' } = request.body;
  checkFileName(file.name);
  // The multipart step lets through only the types the spec lists; anything else here is a wiring fault.
  if (!isMediaType(file.type)) throw new Error(`uploadInvoiceAttachment received a file of type ${file.type}, which the multipart step should have refused`);
  const mediaType = file.type;
  const content = Buffer.from(await file.arrayBuffer());
  // Computed here, from the bytes stored, never taken from the client.
  const sha256 = createHash('sha256').update(content).digest('hex');
  return writeOnce(context, async (trx) => {
    if (!(await lockInvoiceForAttachment(trx, accountId, invoiceId))) throw invoiceNotFound(invoiceId);
    // Under the invoice's lock: a concurrent upload waits, then counts this one.
    if ((await countAttachments(trx, accountId, invoiceId)) >= attachmentsPerInvoice) {
      throw ApiError.conflict(
        'conflict',
        `Invoice ${invoiceId} already keeps ${attachmentsPerInvoice} attachments, the most an invoice can keep; remove one before attaching another.`,
      );
    }
    const row = await insertAttachment(trx, {
      account_id: accountId,
      invoice_id: invoiceId,
      file_name: file.name,
      media_type: mediaType,
      size: content.length,
      sha256,
      note,
      content,
    });
    return { status: 201 as const, headers: { Location: attachmentPath(invoiceId, row.id) }, body: { attachment: toAttachment(row) } };
  });
};

export const listInvoiceAttachments: Handler<'listInvoiceAttachments', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const invoiceId = request.params.invoice_id;
  if (!(await invoiceExists(context.db.db, accountId, invoiceId))) throw invoiceNotFound(invoiceId);
  // An invoice removed between the two reads answers an empty list, as it would have a moment before.
  const rows = await listAttachments(context.db.db, accountId, invoiceId);
  return { status: 200, body: { attachments: rows.map(toAttachment) } };
};

export const getInvoiceAttachment: Handler<'getInvoiceAttachment', RequestContext> = async (request, context) => {
  const { invoice_id: invoiceId, attachment_id: attachmentId } = request.params;
  const file = await findAttachmentFile(context.db.db, accountOf(context), invoiceId, attachmentId);
  if (file === undefined) throw await attachmentNotFound(context, invoiceId, attachmentId);
  // The bytes exactly as uploaded, with the type they were checked to be; the name made safe for a header and a file system.
  return { status: 200, mediaType: file.media_type, headers: { 'Content-Disposition': attachmentDisposition(file.file_name) }, body: file.content };
};

export const deleteInvoiceAttachment: Handler<'deleteInvoiceAttachment', RequestContext> = async (request, context) => {
  const { invoice_id: invoiceId, attachment_id: attachmentId } = request.params;
  if (!(await deleteAttachment(context.db.db, accountOf(context), invoiceId, attachmentId))) throw await attachmentNotFound(context, invoiceId, attachmentId);
  return { status: 204 };
};
