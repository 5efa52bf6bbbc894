// One valid call per operation, through the client: what the mock scenarios send when they ask
// Prism for a given answer, and what the 401 scenario sends without a token. The values follow the
// spec's own request examples; the types come from the client, so a spec change that breaks a call
// here fails to compile. An operation new to the spec has no call yet: the typecheck stays green once
// `pnpm scaffold` has stubbed its handler, and the suite fails at run time naming the missing call.
import type { ApiClient, ApiResult, CallOptions } from '@invoice-api/client';
import type { OperationId } from '@invoice-api/contract';

type ValidCall<K extends OperationId> = (api: ApiClient, options?: CallOptions) => Promise<ApiResult<K>>;
export type ValidCalls = { [K in OperationId]?: ValidCall<K> };

/** The smallest file that starts as a PDF does: what the upload's byte check asks of a PDF. */
const samplePdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const validCalls: ValidCalls = {
  searchInvoices: (api, o) => api.searchInvoices({ criteria: [{ field: 'status', operator: '=', value: 'paid' }], limit: 10 }, o),
  getInvoice: (api, o) => api.getInvoice(1, o),
  createInvoice: (api, o) => api.createInvoice({ client_id: 12, amount: 4200, currency: 'CHF', due_date: '2026-12-31' }, o),
  updateInvoice: (api, o) => api.updateInvoice(1, { description: 'Website relaunch' }, o),
  deleteInvoice: (api, o) => api.deleteInvoice(1, o),
  getInvoicePdf: (api, o) => api.getInvoicePdf(1, o),
  exportInvoices: (api, o) =>
    api.exportInvoices({ criteria: [{ field: 'status', operator: '=', value: 'paid' }], order_by: 'due_date', order_direction: 'asc' }, o),
  uploadInvoiceAttachment: (api, o) =>
    api.uploadInvoiceAttachment(1, { file: new File([samplePdf], 'signed-order.pdf', { type: 'application/pdf' }), note: 'Signed order' }, o),
  listInvoiceAttachments: (api, o) => api.listInvoiceAttachments(1, o),
  getInvoiceAttachment: (api, o) => api.getInvoiceAttachment(1, 1, o),
  deleteInvoiceAttachment: (api, o) => api.deleteInvoiceAttachment(1, 1, o),
  listUsers: (api, o) => api.listUsers(o),
  getUser: (api, o) => api.getUser(1, o),
  listCompanyClients: (api, o) => api.listCompanyClients(o),
  getCompanyClient: (api, o) => api.getCompanyClient(1, o),
  listDeliveries: (api, o) => api.listDeliveries({ limit: 10 }, o),
  getDelivery: (api, o) => api.getDelivery(1, o),
  createDelivery: (api, o) => api.createDelivery({ contact_id: 12, items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] }, o),
  updateDelivery: (api, o) => api.updateDelivery(1, { delivery_date: '2026-11-28' }, o),
  deleteDelivery: (api, o) => api.deleteDelivery(1, o),
  issueDelivery: (api, o) => api.issueDelivery({ delivery_id: 1, contact_id: 12, items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] }, o),
  getHealth: (api, o) => api.getHealth(o),
};

/** The valid call of an operation, or an error naming the operation that has none yet. */
export function validCall<K extends OperationId>(operationId: K): ValidCall<K> {
  const call: ValidCalls[K] = validCalls[operationId];
  if (call === undefined) throw new Error(`no valid call for ${operationId}: add one to packages/contract-tests/src/valid-calls.ts`);
  return call;
}
