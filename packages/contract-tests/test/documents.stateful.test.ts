// The business documents through the generated client and its TanStack Query options, against the
// service and the stateful mock directly (Prism's validation proxy cannot check a binary body): the
// PDF as a Blob with the invoice's ETag, a cached copy answered 304; a file attached from a web File,
// listed, downloaded byte for byte and removed, each mutation refreshing the list it makes stale; the
// export as text. The calls the client's README shows.
import { createHash } from 'node:crypto';
import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import { createQueryOptions } from '@invoice-api/client/query';
import { clientFor } from '../src/clients.js';
import { companyClients, directTargets } from '../src/stateful.js';

/** A 1x1 PNG: the signature, IHDR, IDAT and IEND, as the upload's byte check expects of a PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const clients: QueryClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.clear();
});

describe.each(directTargets())('$name: the documents through the client', (target) => {
  async function newInvoice() {
    const api = await clientFor(target);
    const [client] = await companyClients(target);
    const { invoice } = await expectOk(
      api.createInvoice({ client_id: client?.id ?? 0, amount: 99.9, currency: 'CHF', due_date: '2027-01-31', description: 'Documents through the client' }),
    );
    return { api, invoice };
  }

  it('reads the invoice as a PDF Blob tagged like the invoice, and a cached copy is answered 304', async () => {
    const { api, invoice } = await newInvoice();
    const read = await expectOk(api.getInvoice(invoice.id));
    expect(read.invoice.id).toBe(invoice.id);
    const pdf = await api.getInvoicePdf(invoice.id);
    expect(pdf.ok).toBe(true);
    // Without If-None-Match the answer is the 200 with the document, never the bodiless 304.
    if (!pdf.ok || pdf.data === undefined) throw new Error(`getInvoicePdf answered ${pdf.status} without a document`);
    expect(pdf.data).toBeInstanceOf(Blob);
    expect(pdf.data.type).toBe('application/pdf');
    expect(Buffer.from(await pdf.data.slice(0, 5).arrayBuffer()).toString('latin1')).toBe('%PDF-');
    const etag = pdf.response.headers.get('etag');
    expect(etag).toBe((await api.getInvoice(invoice.id)).response.headers.get('etag'));
    const cached = await api.getInvoicePdf(invoice.id, { headers: { 'If-None-Match': etag ?? '' } });
    // A documented 304 is a success without a body: the copy the caller holds is current.
    expect(cached).toMatchObject({ ok: true, status: 304, data: undefined, etag });
  });

  it('attaches a File, lists it, downloads its bytes and removes it; the mutations refresh the list', async () => {
    const { api, invoice } = await newInvoice();
    const q = createQueryOptions(api);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
    clients.push(queryClient);
    const listOptions = q.listInvoiceAttachmentsOptions({ path: { invoice_id: invoice.id } });
    await queryClient.fetchQuery(listOptions);
    const list = new QueryObserver(queryClient, listOptions);
    const unsubscribe = list.subscribe(() => undefined);
    try {
      expect(list.getCurrentResult().data?.attachments).toEqual([]);
      const { attachment } = await new MutationObserver(queryClient, q.uploadInvoiceAttachmentMutation()).mutate({
        path: { invoice_id: invoice.id },
        body: { file: new File([png], 'delivery-note.png', { type: 'image/png' }), note: 'Signed on delivery' },
      });
      expect(attachment).toMatchObject({
        invoice_id: invoice.id,
        file_name: 'delivery-note.png',
        media_type: 'image/png',
        size: png.length,
        note: 'Signed on delivery',
      });
      expect(attachment.sha256).toBe(createHash('sha256').update(png).digest('hex'));
      // The upload settles after the refetch it caused: the file is listed without another call.
      expect(list.getCurrentResult().data?.attachments.map((entry) => entry.id)).toEqual([attachment.id]);

      const download = await api.getInvoiceAttachment(invoice.id, attachment.id);
      expect(download.ok).toBe(true);
      if (!download.ok) return;
      expect(download.data.type).toBe('image/png');
      expect(Buffer.from(await download.data.arrayBuffer()).equals(png)).toBe(true);
      expect(download.response.headers.get('content-disposition')).toBe('attachment; filename=delivery-note.png');

      await new MutationObserver(queryClient, q.deleteInvoiceAttachmentMutation()).mutate({ path: { invoice_id: invoice.id, attachment_id: attachment.id } });
      expect(list.getCurrentResult().data?.attachments).toEqual([]);
      const gone = await api.getInvoiceAttachment(invoice.id, attachment.id);
      expect(gone.ok).toBe(false);
      expect(gone.status).toBe(404);
    } finally {
      unsubscribe();
    }
  });

  it('refuses a text renamed .pdf with the typed 415 and stores nothing', async () => {
    const { api, invoice } = await newInvoice();
    const refused = await api.uploadInvoiceAttachment(invoice.id, { file: new File(['not a PDF at all'], 'scan.pdf', { type: 'application/pdf' }) });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.status).toBe(415);
    expect(refused.error.error).toBe('unsupported_media_type');
    expect(refused.error.details?.field).toBe('file');
    expect((await expectOk(api.listInvoiceAttachments(invoice.id))).attachments).toEqual([]);
  });

  it('exports the invoice just created as CSV text, found by its criteria', async () => {
    const { api, invoice } = await newInvoice();
    const csv = await expectOk(api.exportInvoices({ criteria: [{ field: 'invoice_number', operator: '=', value: invoice.invoice_number }] }));
    const [header, row, end] = csv.split('\r\n');
    expect(header).toBe('id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description');
    expect(row).toBe(
      [
        invoice.id,
        invoice.invoice_number,
        invoice.client_id,
        invoice.client_name,
        '99.90',
        'CHF',
        'draft',
        '2027-01-31',
        invoice.created_at,
        invoice.updated_at,
        invoice.description,
      ].join(','),
    );
    expect(end).toBe('');
  });
});
