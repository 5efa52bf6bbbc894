// The packed client's MSW handlers in a Node test set-up, as another repository writes it:
// `setupServer(...createHandlers())`, first under the TanStack Query consumer's calls (three pages of
// the infinite search by cursor, a mutation that invalidates it), then with an override, called with
// the generated client. `node out-node/msw-main.js` prints one JSON line.
import { createApiClient } from '@invoice-api/client';
import { createHandlers } from '@invoice-api/client/msw';
import { setupServer } from 'msw/node';
import { querySummary } from './query.js';

const baseUrl = 'http://api.example.test';
const server = setupServer(...createHandlers({ baseUrl }));
server.listen({ onUnhandledRequest: 'error' });
const query = await querySummary(baseUrl);
server.resetHandlers(...createHandlers({ baseUrl, overrides: { getInvoice: { status: 404 } } }));
// Made after listen(): openapi-fetch keeps the fetch it finds when the client is made.
const api = createApiClient({ baseUrl, token: 'any-token', retry: false, validateResponses: true });
const page = await api.searchInvoices({ criteria: [{ field: 'status', operator: '=', value: 'paid' }] });
const missing = await api.getInvoice(1);
const refused = await fetch(`${baseUrl}/api/v1/invoices/search`, {
  method: 'POST',
  headers: { Authorization: 'Bearer any-token', 'Content-Type': 'application/json' },
  body: JSON.stringify({ criteria: [{ field: 'amount', operator: 'like', value: '12' }] }),
});
const refusal = (await refused.json()) as { details?: { field?: string } };
server.close();
console.log(
  JSON.stringify({
    query,
    searchStatus: page.status,
    invoices: page.ok ? page.data.data.length : 0,
    getInvoiceStatus: missing.status,
    refusedStatus: refused.status,
    refusedField: refusal.details?.field,
  }),
);

// Never called: the override's body is typed by its status.
export function wrongOverride() {
  // @ts-expect-error a 200 of getInvoice is `{ invoice }`
  return createHandlers({ overrides: { getInvoice: { status: 200, body: { wrong: true } } } });
}
