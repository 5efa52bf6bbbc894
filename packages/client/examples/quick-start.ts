import { createApiClient, expectOk } from '@invoice-api/client';

export async function quickStart(baseUrl: string) {
  // Against the mock any bearer token works; against the service use `pnpm --silent token`.
  const api = createApiClient({ baseUrl, token: process.env.API_TOKEN ?? 'any-token-works-against-the-mock' });

  // The body and the answer are typed from the spec: a misspelt field does not compile.
  const page = await api.searchInvoices({
    criteria: [
      { field: 'status', operator: '=', value: 'paid' },
      { field: 'amount', operator: '>', value: 1000 },
    ],
    order_by: 'amount',
    order_direction: 'desc',
    limit: 10,
  });
  if (!page.ok) throw new Error(`search failed: ${page.status} ${page.error.error}`);
  console.log(`${page.data.pagination.total} paid invoices over 1000; first: ${page.data.data[0]?.invoice_number}`);

  // A documented error comes back as the spec's Error object. The mock answers any documented
  // status on request: here the 409 of issuing a delivery twice.
  const issued = await api.issueDelivery(
    { delivery_id: 42, contact_id: 12, items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] },
    { headers: { Prefer: 'code=409' } },
  );
  if (!issued.ok) console.log(`issue: ${issued.status} ${issued.error.error}: ${issued.error.message}`);

  // expectOk when only the happy path matters: it throws an ApiCallError carrying the Error body.
  const { users } = await expectOk(api.listUsers());
  console.log(`${users.length} users; request id of the last call: ${page.requestId}`);
  return { total: page.data.pagination.total, issueStatus: issued.status, users: users.length };
}

// `npx tsx packages/client/examples/quick-start.ts` while `pnpm mock` runs.
if (process.argv[1]?.endsWith('quick-start.ts')) {
  await quickStart(process.env.API_URL ?? 'http://127.0.0.1:4010');
}
