// A delivery from draft to issued: pick a company client (listCompanyClients), add lines, create the
// draft (createDelivery), then issue it (issueDelivery) with the draft's contact, lines and date. Both
// writes are the generated mutations: their onSuccess invalidates the delivery list, which refetches
// and redraws here (the account's deliveries) without a reload.
import type { CompanyClient, Delivery, DeliveryItemInput } from '@invoice-api/contract';
import type { AppContext } from './app-context.js';
import { h, option, render } from './dom.js';
import { formatMoney } from './format.js';

interface LineInputs {
  itemId: HTMLInputElement;
  quantity: HTMLInputElement;
  unitPrice: HTMLInputElement;
}

export function mountDelivery(root: HTMLElement, context: AppContext): { loadClients: () => Promise<void> } {
  const contact = h('select', { attrs: { name: 'contact_id', required: true } });
  const deliveryDate = h('input', { attrs: { type: 'date', name: 'delivery_date' } });
  const lines: LineInputs[] = [];
  const lineList = h('div', { attrs: { class: 'lines' } });
  const result = h('div', { attrs: { class: 'delivery', 'aria-live': 'polite' } });

  function renderLines(): void {
    render(
      lineList,
      ...lines.map((line, index) => {
        const position = index + 1;
        line.itemId.setAttribute('aria-label', `Item id ${position}`);
        line.quantity.setAttribute('aria-label', `Quantity ${position}`);
        line.unitPrice.setAttribute('aria-label', `Unit price ${position}`);
        return h(
          'div',
          { attrs: { class: 'line', role: 'group', 'aria-label': `Line ${position}` } },
          line.itemId,
          line.quantity,
          line.unitPrice,
          h(
            'button',
            {
              attrs: { type: 'button', 'aria-label': `Remove line ${position}` },
              on: {
                click: () => {
                  lines.splice(index, 1);
                  renderLines();
                },
              },
            },
            '✕',
          ),
        );
      }),
    );
  }

  function addLine(): void {
    // Numbers are left to the API to judge (a zero quantity, three decimals): its message is shown.
    const number = (placeholder: string) => h('input', { attrs: { type: 'number', step: 'any', required: true, placeholder } });
    lines.push({ itemId: number('item id'), quantity: number('quantity'), unitPrice: number('unit price') });
    renderLines();
  }

  function renderDelivery(delivery: Delivery): void {
    render(
      result,
      h('h3', {}, `Delivery ${delivery.delivery_nr}`),
      h(
        'p',
        {},
        h('span', { attrs: { class: 'delivery-status' } }, delivery.status),
        ` · contact #${delivery.contact_id} · `,
        delivery.delivery_date ? `date ${delivery.delivery_date}` : 'no date yet',
        ' · total ',
        formatMoney(delivery.total_amount),
      ),
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, ...['Item', 'Quantity', 'Unit price', 'Total'].map((label) => h('th', { attrs: { scope: 'col' } }, label)))),
        h(
          'tbody',
          {},
          ...delivery.items.map((item) =>
            h('tr', {}, h('td', {}, item.item_id), h('td', {}, item.quantity), h('td', {}, formatMoney(item.unit_price)), h('td', {}, formatMoney(item.total))),
          ),
        ),
      ),
      delivery.status === 'draft' && h('button', { attrs: { type: 'button' }, on: { click: () => void issue(delivery) } }, 'Issue delivery'),
    );
  }

  async function create(): Promise<void> {
    const items: DeliveryItemInput[] = lines.map((line) => ({
      item_id: line.itemId.valueAsNumber,
      quantity: line.quantity.valueAsNumber,
      unit_price: line.unitPrice.valueAsNumber,
    }));
    const body = { contact_id: Number(contact.value), items, ...(deliveryDate.value ? { delivery_date: deliveryDate.value } : {}) };
    const created = await context.run('Creating the delivery', (data) => data.createDelivery({ body }));
    if (!created) return;
    renderDelivery(created.delivery);
    context.announce(`Delivery ${created.delivery.delivery_nr} created as a draft`);
  }

  async function issue(draft: Delivery): Promise<void> {
    const body = {
      delivery_id: draft.id,
      contact_id: draft.contact_id,
      items: draft.items.map(({ item_id, quantity, unit_price }) => ({ item_id, quantity, unit_price })),
      ...(draft.delivery_date ? { delivery_date: draft.delivery_date } : {}),
    };
    const issued = await context.run('Issuing the delivery', (data) => data.issueDelivery({ body }));
    if (!issued) return;
    renderDelivery(issued);
    context.announce(`Delivery ${issued.delivery_nr} issued`);
  }

  render(
    root,
    h('h2', {}, 'New delivery'),
    h(
      'form',
      {
        attrs: { 'aria-label': 'New delivery' },
        on: {
          submit: (event) => {
            event.preventDefault();
            void create();
          },
        },
      },
      h('label', {}, 'Contact ', contact),
      h('label', {}, 'Delivery date ', deliveryDate),
      h('fieldset', {}, h('legend', {}, 'Lines'), lineList, h('button', { attrs: { type: 'button' }, on: { click: addLine } }, 'Add line')),
      h('button', { attrs: { type: 'submit' } }, 'Create draft'),
    ),
    result,
  );
  addLine();

  return {
    async loadClients() {
      const clients = await context.run('Loading the company clients', (data) => data.companyClients());
      if (clients) render(contact, ...clients.company_clients.map((client: CompanyClient) => option(String(client.id), `${client.name} (#${client.id})`)));
    },
  };
}
