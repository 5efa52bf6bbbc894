// One invoice's detail, read with the generated getInvoiceOptions (so it is current, not the search
// row's copy, and cached under the key an invoice write invalidates); its PDF (getInvoicePdf, saved as
// the invoice's number); and its attachments (./attachments-view.ts).
import type { Invoice } from '@invoice-api/contract';
import type { AppContext } from './app-context.js';
import { attachmentsView, type AttachmentsView } from './attachments-view.js';
import { h, render } from './dom.js';
import { formatMoney, formatTimestamp } from './format.js';
import { saveFile } from './save-file.js';

export function mountInvoiceDetail(root: HTMLElement, context: AppContext): { show: (invoiceId: number) => Promise<void> } {
  root.hidden = true;
  let attachments: AttachmentsView | undefined;

  async function downloadPdf(invoice: Invoice): Promise<void> {
    const pdf = await context.run('Downloading the PDF', (data) => data.invoicePdf(invoice.id));
    if (pdf) saveFile(pdf, `${invoice.invoice_number}.pdf`);
  }

  function renderInvoice(invoice: Invoice): AttachmentsView {
    const rows: Array<[string, string]> = [
      ['Number', invoice.invoice_number],
      ['Client', `${invoice.client_name} (#${invoice.client_id})`],
      ['Status', invoice.status],
      ['Amount', formatMoney(invoice.amount, invoice.currency)],
      ['Due date', invoice.due_date],
      ['Description', invoice.description],
      ['Created', formatTimestamp(invoice.created_at)],
      ['Updated', formatTimestamp(invoice.updated_at)],
    ];
    const files = attachmentsView(context, invoice.id);
    render(
      root,
      h('h2', {}, `Invoice ${invoice.invoice_number}`),
      h('dl', {}, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      h(
        'p',
        { attrs: { class: 'detail-actions' } },
        h('button', { attrs: { type: 'button' }, on: { click: () => void downloadPdf(invoice) } }, 'Download PDF'),
        ' ',
        h(
          'button',
          {
            attrs: { type: 'button' },
            on: {
              click: () => {
                attachments?.dispose();
                attachments = undefined;
                root.hidden = true;
              },
            },
          },
          'Close',
        ),
      ),
      files.element,
    );
    root.hidden = false;
    return files;
  }

  return {
    async show(invoiceId) {
      const result = await context.run('Opening the invoice', (data) => data.invoice(invoiceId));
      if (!result) return;
      attachments?.dispose();
      attachments = renderInvoice(result.invoice);
      await attachments.load();
    },
  };
}
