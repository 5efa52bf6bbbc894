// Two plans for one deep page (offset N, 50 rows, newest first): the naive OFFSET over whole rows, and
// a deferred join that walks only the (account_id, created_at, id) index to find the 50 ids, then
// fetches those rows. The benchmark times both to show what the deep-page target needs.
import type { Statement } from './service-sql.js';

/** The invoice columns the API returns, in the Invoice schema's order. */
const invoiceColumns = 'id, invoice_number, client_id, client_name, amount, currency, status, due_date, created_at, updated_at, description';

export function naiveDeepPage(accountId: number, offset: number): Statement {
  return {
    text: `select ${invoiceColumns} from invoices where account_id = $1 order by created_at desc, id desc limit 50 offset $2`,
    values: [accountId, offset],
  };
}

export function deferredJoinDeepPage(accountId: number, offset: number): Statement {
  return {
    text: `select ${invoiceColumns
      .split(', ')
      .map((column) => `i.${column}`)
      .join(', ')}
           from (select id from invoices where account_id = $1 order by created_at desc, id desc limit 50 offset $2) page
           join invoices i on i.id = page.id
           order by i.created_at desc, i.id desc`,
    values: [accountId, offset],
  };
}
