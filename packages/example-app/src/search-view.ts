// Invoice search: criteria rows (fields and operators from the spec), sorting by a column header, an
// infinite list by cursor ("Load more" fetches the page after the last, with the API's next_cursor)
// with the total the API counted, a click on an invoice number to open its detail, and "Export CSV"
// of the same search (./export-view.ts).
import type { Invoice, InvoiceSearchResult, SortField } from '@invoice-api/contract';
import type { AppContext } from './app-context.js';
import type { InvoiceQuery } from './data.js';
import { defaultSearch, operatorsOf, searchableFields, toCriterion, valueHint, type CriterionInput } from './criteria.js';
import { h, option, render } from './dom.js';
import { exportButton } from './export-view.js';
import { formatMoney, formatTimestamp } from './format.js';

interface Column {
  field: SortField;
  label: string;
  cell: (invoice: Invoice, open: (id: number) => void) => Node | string;
}

const columns: readonly Column[] = [
  {
    field: 'invoice_number',
    label: 'Invoice',
    cell: (invoice, open) => h('button', { attrs: { type: 'button', class: 'link' }, on: { click: () => open(invoice.id) } }, invoice.invoice_number),
  },
  { field: 'client_name', label: 'Client', cell: (invoice) => invoice.client_name },
  { field: 'status', label: 'Status', cell: (invoice) => invoice.status },
  { field: 'amount', label: 'Amount', cell: (invoice) => formatMoney(invoice.amount, invoice.currency) },
  { field: 'due_date', label: 'Due date', cell: (invoice) => invoice.due_date },
  { field: 'created_at', label: 'Created', cell: (invoice) => formatTimestamp(invoice.created_at) },
];

const pageSizes = [10, 25, 50] as const;

interface SearchState {
  criteria: CriterionInput[];
  orderBy: SortField;
  direction: 'asc' | 'desc';
  limit: number;
}

export function mountSearch(root: HTMLElement, context: AppContext, openInvoice: (id: number) => void): { search: () => Promise<void> } {
  const state: SearchState = { criteria: [], orderBy: defaultSearch.order_by, direction: defaultSearch.order_direction, limit: pageSizes[0] };
  const criteriaList = h('div', { attrs: { class: 'criteria' } });
  const pageSize = h(
    'select',
    {
      attrs: { name: 'limit' },
      on: {
        change: () => {
          state.limit = Number(pageSize.value);
          void search();
        },
      },
    },
    ...pageSizes.map((size) => option(String(size), String(size), size === state.limit)),
  );
  const summary = h('p', { attrs: { class: 'summary', 'aria-live': 'polite' } });
  const table = h('table', { attrs: { class: 'invoices' } });
  const pager = h('nav', { attrs: { 'aria-label': 'Pages', class: 'pager' } });

  function renderCriteria(): void {
    render(
      criteriaList,
      ...state.criteria.map((criterion, index) =>
        criterionRow(criterion, index + 1, () => {
          state.criteria.splice(index, 1);
          renderCriteria();
        }),
      ),
    );
  }

  const form = h(
    'form',
    {
      attrs: { 'aria-label': 'Search invoices' },
      on: {
        submit: (event) => {
          event.preventDefault();
          void search();
        },
      },
    },
    h(
      'fieldset',
      {},
      h('legend', {}, 'Criteria (all must match)'),
      criteriaList,
      h(
        'button',
        {
          attrs: { type: 'button' },
          on: {
            click: () => {
              const field = searchableFields[0]!;
              state.criteria.push({ field, operator: operatorsOf(field)[0]!, value: '' });
              renderCriteria();
            },
          },
        },
        'Add criterion',
      ),
    ),
    h('label', {}, 'Page size ', pageSize),
    h('button', { attrs: { type: 'submit' } }, 'Search'),
  );

  function sortBy(field: SortField): void {
    state.direction = state.orderBy === field && state.direction === 'asc' ? 'desc' : 'asc';
    state.orderBy = field;
    void search();
  }

  function renderResult(pages: readonly InvoiceSearchResult[], hasMore: boolean): void {
    const total = pages[0]?.pagination.total ?? 0;
    const invoices = pages.flatMap((page) => page.data);
    summary.textContent = total === 0 ? 'No invoices match.' : `Showing 1–${invoices.length} of ${total} invoices`;
    render(
      table,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...columns.map((column) => {
            const sorted = state.orderBy === column.field;
            return h(
              'th',
              { attrs: { scope: 'col', 'aria-sort': sorted ? (state.direction === 'asc' ? 'ascending' : 'descending') : 'none' } },
              h(
                'button',
                { attrs: { type: 'button', class: 'sort' }, on: { click: () => sortBy(column.field) } },
                column.label,
                sorted ? (state.direction === 'asc' ? ' ▲' : ' ▼') : '',
              ),
            );
          }),
        ),
      ),
      h(
        'tbody',
        {},
        ...invoices.map((invoice) =>
          h('tr', {}, ...columns.map((column) => h('td', { attrs: { 'data-field': column.field } }, column.cell(invoice, openInvoice)))),
        ),
      ),
    );
    render(
      pager,
      h('span', {}, ` ${pages.length} ${pages.length === 1 ? 'page' : 'pages'} loaded `),
      h('button', { attrs: { type: 'button', disabled: !hasMore }, on: { click: () => void loadMore() } }, 'Load more'),
    );
  }

  function currentQuery(): InvoiceQuery {
    return { criteria: state.criteria.map(toCriterion), order_by: state.orderBy, order_direction: state.direction, limit: state.limit };
  }

  // The search the list shows (what was last sent, not what the form holds since): what an export
  // exports, so that the file holds the invoices the summary counted.
  let shown = currentQuery();

  // One observer for the page's life: a new search points it at another key; the pages it holds are
  // drawn whenever they change (a search, "Load more", or a refetch after a write invalidated them).
  const list = context.data.invoiceList(currentQuery());
  list.subscribe((result) => {
    if (result.data) renderResult(result.data.pages, result.hasNextPage);
  });

  async function search(): Promise<void> {
    shown = currentQuery();
    const options = context.data.searchOptions(shown);
    list.setOptions(options);
    await context.run('Search', (data) => data.queryClient.fetchInfiniteQuery(options));
  }

  async function loadMore(): Promise<void> {
    await context.run('Loading more invoices', async () => {
      const result = await list.fetchNextPage();
      if (result.isError) throw result.error;
    });
  }

  const exportCsv = exportButton(context, () => ({ criteria: shown.criteria ?? [], order_by: shown.order_by, order_direction: shown.order_direction }));

  render(root, h('h2', {}, 'Invoices'), form, h('div', { attrs: { class: 'search-actions' } }, summary, exportCsv), table, pager);
  return { search };
}

function criterionRow(criterion: CriterionInput, position: number, remove: () => void): HTMLElement {
  const value = h('input', {
    attrs: { type: 'text', 'aria-label': `Value ${position}`, value: criterion.value, placeholder: valueHint(criterion.field, criterion.operator) },
    on: {
      input: () => {
        criterion.value = value.value;
      },
    },
  });
  const operator = h('select', { attrs: { 'aria-label': `Operator ${position}` } });
  const fillOperators = () => {
    const allowed = operatorsOf(criterion.field);
    if (!allowed.includes(criterion.operator)) criterion.operator = allowed[0]!;
    render(operator, ...allowed.map((name) => option(name, name, name === criterion.operator)));
    value.placeholder = valueHint(criterion.field, criterion.operator);
  };
  operator.addEventListener('change', () => {
    criterion.operator = operatorsOf(criterion.field).find((name) => name === operator.value) ?? criterion.operator;
    value.placeholder = valueHint(criterion.field, criterion.operator);
  });
  const field = h(
    'select',
    {
      attrs: { 'aria-label': `Field ${position}` },
      on: {
        change: () => {
          criterion.field = searchableFields.find((name) => name === field.value) ?? criterion.field;
          fillOperators();
        },
      },
    },
    ...searchableFields.map((name) => option(name, name, name === criterion.field)),
  );
  fillOperators();
  return h(
    'div',
    { attrs: { class: 'criterion', role: 'group', 'aria-label': `Criterion ${position}` } },
    field,
    operator,
    value,
    h('button', { attrs: { type: 'button', 'aria-label': `Remove criterion ${position}` }, on: { click: remove } }, '✕'),
  );
}
