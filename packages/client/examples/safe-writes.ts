import type { ApiClient, RequestBody } from '@invoice-api/client';

/** Marks an invoice paid unless someone changed it since it was read: false when they did. */
export async function markPaid(api: ApiClient, invoiceId: number): Promise<boolean> {
  const read = await api.getInvoice(invoiceId);
  if (!read.ok) throw new Error(`read failed: ${read.status} ${read.error.error}`);
  // read.etag is the version read; the update applies only if it is still the current one.
  const paid = await api.updateInvoice(invoiceId, { status: 'paid' }, { ifMatch: read.etag });
  if (paid.ok) return true;
  if (paid.error.error === 'precondition_failed') return false; // changed meanwhile: read again, decide again
  throw new Error(`update failed: ${paid.status} ${paid.error.error}`);
}

/**
 * Invoices an order once however often it runs (after a crash, a timeout, a second click) within the
 * key's lifetime (24 hours by default): the key is the order's, so a repeat is answered with the
 * invoice made the first time. The same key with another body is refused (422 idempotency_key_reused).
 */
export async function invoiceOrder(api: ApiClient, orderId: string, invoice: RequestBody<'createInvoice'>) {
  const created = await api.createInvoice(invoice, { idempotencyKey: `order-${orderId}` });
  if (!created.ok) throw new Error(`create failed: ${created.status} ${created.error.error}`);
  return { invoice: created.data.invoice, firstTime: !created.replayed };
}
