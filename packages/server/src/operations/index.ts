// Every operation of the spec, keyed by operationId. HandlerMap makes a missing or extra one a
// compile error, so the spec and this map cannot drift apart. One namespace import per tag file and
// one `operationId: file.operationId` line per operation: `pnpm scaffold` adds both for a new
// operation (after writing its stub), so keep this shape.
import type { HandlerMap } from '@invoice-api/contract';
import type { RequestContext } from '../context.js';
import * as attachments from './attachments.js';
import * as deliveries from './deliveries.js';
import * as directory from './directory.js';
import * as health from './health.js';
import * as invoiceExport from './invoice-export.js';
import * as invoicePdf from './invoice-pdf.js';
import * as invoices from './invoices.js';

export function createHandlers(): HandlerMap<RequestContext> {
  return {
    searchInvoices: invoices.searchInvoices,
    getInvoice: invoices.getInvoice,
    createInvoice: invoices.createInvoice,
    updateInvoice: invoices.updateInvoice,
    deleteInvoice: invoices.deleteInvoice,
    getInvoicePdf: invoicePdf.getInvoicePdf,
    exportInvoices: invoiceExport.exportInvoices,
    uploadInvoiceAttachment: attachments.uploadInvoiceAttachment,
    listInvoiceAttachments: attachments.listInvoiceAttachments,
    getInvoiceAttachment: attachments.getInvoiceAttachment,
    deleteInvoiceAttachment: attachments.deleteInvoiceAttachment,
    listUsers: directory.listUsers,
    getUser: directory.getUser,
    listCompanyClients: directory.listCompanyClients,
    getCompanyClient: directory.getCompanyClient,
    listDeliveries: deliveries.listDeliveries,
    createDelivery: deliveries.createDelivery,
    getDelivery: deliveries.getDelivery,
    updateDelivery: deliveries.updateDelivery,
    issueDelivery: deliveries.issueDelivery,
    deleteDelivery: deliveries.deleteDelivery,
    getHealth: health.getHealth,
  };
}
