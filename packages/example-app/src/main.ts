// The page: which API it talks to (or the generated MSW handlers in a service worker), the problem
// panel, and the views.
import { createAppContext } from './app-context.js';
import { readConfig } from './config.js';
import { mountDeliveryList } from './delivery-list-view.js';
import { mountDelivery } from './delivery-view.js';
import { h, render } from './dom.js';
import { mountInvoiceDetail } from './invoice-view.js';
import { mountSearch } from './search-view.js';
import './style.css';

const config = readConfig(import.meta.env);
// Read from import.meta.env itself (not `config`): Vite replaces it with the build's value, so a build
// without VITE_API_MOCK=msw drops this branch and carries neither MSW nor the handlers.
if (import.meta.env.VITE_API_MOCK === 'msw') {
  const { startMockWorker } = await import('./mock-worker.js');
  await startMockWorker(config.apiBaseUrl);
}
const app = document.getElementById('app');
if (!app) throw new Error('index.html has no #app element');

const problemPanel = h('section', { attrs: { class: 'problem', role: 'alert', 'aria-label': 'Problem' } });
problemPanel.hidden = true;
const statusLine = h('p', { attrs: { class: 'status', role: 'status' } });
const searchSection = h('section', { attrs: { class: 'search', 'aria-label': 'Invoice search' } });
const detailSection = h('section', { attrs: { class: 'detail', 'aria-label': 'Invoice detail' } });
const deliverySection = h('section', { attrs: { class: 'new-delivery', 'aria-label': 'New delivery' } });
const deliveryListSection = h('section', { attrs: { class: 'delivery-list', 'aria-label': 'Deliveries' } });

render(
  app,
  h(
    'header',
    {},
    h('h1', {}, 'Invoices and deliveries'),
    h(
      'p',
      { attrs: { class: 'api' } },
      'API: ',
      h('code', {}, config.apiBaseUrl),
      config.apiToken ? '' : ' (no token configured)',
      config.mock === 'msw' ? ' (answered by the MSW handlers in a service worker)' : '',
    ),
  ),
  problemPanel,
  statusLine,
  h('main', {}, searchSection, detailSection, deliverySection, deliveryListSection),
);

const context = createAppContext(config, problemPanel, statusLine);
const detail = mountInvoiceDetail(detailSection, context);
const search = mountSearch(searchSection, context, (id) => void detail.show(id));
const delivery = mountDelivery(deliverySection, context);
const deliveryList = mountDeliveryList(deliveryListSection, context);

// One after another: each call clears the last problem, so the panel shows the last one that failed.
await search.search();
await delivery.loadClients();
await deliveryList.load();
// The first answers are drawn: what a test (or a person watching) can wait for.
document.body.dataset.ready = 'true';
