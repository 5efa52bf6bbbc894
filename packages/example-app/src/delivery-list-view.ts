// The account's deliveries (listDeliveries, observed): how many, drafts and issued, and the latest
// few. Nothing here reloads it after a write: the delivery mutations' onSuccess invalidates its key,
// the query refetches, and the observer redraws.
import type { Delivery } from '@invoice-api/contract';
import type { AppContext } from './app-context.js';
import { h, render } from './dom.js';
import { formatMoney } from './format.js';

const latestShown = 5;

export function mountDeliveryList(root: HTMLElement, context: AppContext): { load: () => Promise<void> } {
  const summary = h('p', { attrs: { class: 'deliveries-summary', 'aria-live': 'polite' } });
  const table = h('table', { attrs: { class: 'deliveries' } });

  function renderDeliveries(deliveries: readonly Delivery[]): void {
    const drafts = deliveries.filter((delivery) => delivery.status === 'draft').length;
    summary.textContent = `${deliveries.length} deliveries: ${drafts} drafts, ${deliveries.length - drafts} issued`;
    // The list is ordered by id: the latest are at its end.
    const latest = deliveries.slice(-latestShown).reverse();
    render(
      table,
      h('thead', {}, h('tr', {}, ...['Delivery', 'Status', 'Total'].map((label) => h('th', { attrs: { scope: 'col' } }, label)))),
      h(
        'tbody',
        {},
        ...latest.map((delivery) =>
          h(
            'tr',
            {},
            h('td', { attrs: { 'data-field': 'delivery_nr' } }, delivery.delivery_nr),
            h('td', { attrs: { 'data-field': 'status' } }, delivery.status),
            h('td', { attrs: { 'data-field': 'total_amount' } }, formatMoney(delivery.total_amount)),
          ),
        ),
      ),
    );
  }

  render(root, h('h2', {}, 'Deliveries'), summary, table);
  return {
    async load() {
      const loaded = await context.run('Loading the deliveries', (data) => data.deliveries());
      if (!loaded) return;
      renderDeliveries(loaded.deliveries);
      // Observed from now on: the query is active, so an invalidation refetches it and this redraws.
      context.data.deliveryList().subscribe((result) => {
        if (result.data) renderDeliveries(result.data.deliveries);
      });
    },
  };
}
