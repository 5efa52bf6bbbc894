// One invoice's detail, read with the generated getInvoiceOptions (so it is current, not the search
// row's copy, and cached under the key an invoice write invalidates).
import type { Invoice } from '@invoice-api/contract';
import type { AppContext } from './app-context.js';
import { h, render } from './dom.js';
import { formatMoney, formatTimestamp } from './format.js';

export function mountInvoiceDetail(root: HTMLElement, context: AppContext): { show: (invoiceId: number) => Promise<void> } {
  root.hidden = true;

  function renderInvoice(invoice: Invoice): void {
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
    render(
      root,
      h('h2', {}, `Invoice ${invoice.invoice_number}`),
      h('dl', {}, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      h(
        'button',
        {
          attrs: { type: 'button' },
          on: {
            click: () => {
              root.hidden = true;
            },
          },
        },
        'Close',
      ),
    );
    root.hidden = false;
  }

  return {
    async show(invoiceId) {
      const result = await context.run('Opening the invoice', (data) => data.invoice(invoiceId));
      if (result) renderInvoice(result.invoice);
    },
  };
}
