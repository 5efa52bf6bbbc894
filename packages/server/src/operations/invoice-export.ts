// Invoices exported as CSV (exportInvoices): the search's criteria and order, every match, streamed
// batch by batch (export/invoice-csv.ts). The body is a search body without its page, so it is parsed
// and refused by the search's own rules and words.
import type { Handler } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import { invoiceCsv } from '../export/invoice-csv.js';
import { attachmentDisposition } from '../http/content-disposition.js';
import { parseSearchRequest } from '../search/index.js';
import { accountOf } from './caller.js';

export const exportInvoices: Handler<'exportInvoices', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  // The spec refuses limit, offset and cursor here (a closed object); the rest is a search body.
  const { orderBy, direction, criteria } = parseSearchRequest(request.body);
  const body = await invoiceCsv(context.db, accountId, { orderBy, direction, criteria });
  return { status: 200, headers: { 'Content-Disposition': attachmentDisposition('invoices.csv') }, body };
};
