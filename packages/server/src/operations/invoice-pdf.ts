// The invoice as PDF (getInvoicePdf): the invoice's own ETag, so a cached copy is answered 304 without
// rendering anything; otherwise the document (documents/invoice-pdf.ts), named after the invoice.
import type { Handler } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import { findInvoiceDocument } from '../db/invoices.js';
import { toInvoice } from '../db/mappers.js';
import { renderInvoicePdf } from '../documents/invoice-pdf.js';
import { ApiError } from '../errors.js';
import { attachmentDisposition } from '../http/content-disposition.js';
import { entityTag, isNotModified } from '../preconditions/index.js';
import { accountOf } from './caller.js';

export const getInvoicePdf: Handler<'getInvoicePdf', RequestContext> = async (request, context) => {
  const invoiceId = request.params.invoice_id;
  const found = await findInvoiceDocument(context.db.db, accountOf(context), invoiceId);
  if (found === undefined) throw ApiError.notFound(`Invoice ${invoiceId} not found.`);
  const tag = entityTag(found.id, found.version);
  if (isNotModified(context.ifNoneMatch, tag)) return { status: 304, headers: { ETag: tag } };
  const invoice = toInvoice(found);
  const body = await renderInvoicePdf({ accountName: found.account_name, invoice, amount: found.amount });
  return { status: 200, headers: { ETag: tag, 'Content-Disposition': attachmentDisposition(`${invoice.invoice_number}.pdf`) }, body };
};
