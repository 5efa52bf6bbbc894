// The page: which API it talks to, the problem panel, and the three views.
import { createAppContext } from './app-context.js';
import { readConfig } from './config.js';
import { mountDelivery } from './delivery-view.js';
import { h, render } from './dom.js';
import { mountInvoiceDetail } from './invoice-view.js';
import { mountSearch } from './search-view.js';
import './style.css';

const config = readConfig(import.meta.env);
const app = document.getElementById('app');
if (!app) throw new Error('index.html has no #app element');

const problemPanel = h('section', { attrs: { class: 'problem', role: 'alert', 'aria-label': 'Problem' } });
problemPanel.hidden = true;
const statusLine = h('p', { attrs: { class: 'status', role: 'status' } });
const searchSection = h('section', { attrs: { class: 'search', 'aria-label': 'Invoice search' } });
const detailSection = h('section', { attrs: { class: 'detail', 'aria-label': 'Invoice detail' } });
const deliverySection = h('section', { attrs: { class: 'new-delivery', 'aria-label': 'New delivery' } });

render(
  app,
  h(
    'header',
    {},
    h('h1', {}, 'Invoices and deliveries'),
    h('p', { attrs: { class: 'api' } }, 'API: ', h('code', {}, config.apiBaseUrl), config.apiToken ? '' : ' (no token configured)'),
  ),
  problemPanel,
  statusLine,
  h('main', {}, searchSection, detailSection, deliverySection),
);

const context = createAppContext(config, problemPanel, statusLine);
const detail = mountInvoiceDetail(detailSection, context);
const search = mountSearch(searchSection, context, (id) => void detail.show(id));
const delivery = mountDelivery(deliverySection, context);

await search.search();
await delivery.loadClients();
// The first answers are drawn: what a test (or a person watching) can wait for.
document.body.dataset.ready = 'true';
