// A frontend project's code on the packed client, as it would be written in another repository:
// the tarball test copies this directory into a scratch project, installs the tarball with npm,
// type-checks it (strict, moduleResolution nodenext and bundler), runs it in Node against the mock
// and bundles it for the browser. No Node API here: the same file goes into the browser bundle.
import { createApiClient, expectOk, isSafeOperation, type ApiClient } from '@invoice-api/client';
import { searchRules, type ApiError, type Invoice, type SearchCriterion } from '@invoice-api/client/contract';

export interface Summary {
  total: number;
  firstInvoiceNumber: string | undefined;
  issueStatus: number;
  issueError: ApiError['error'] | undefined;
  users: number;
  statusOperators: readonly string[];
  searchIsSafe: boolean;
  /** Users listed by a client with validateResponses on: its generated validators load from the tarball. */
  validatedUsers: number;
}

export async function summary(baseUrl: string): Promise<Summary> {
  const api = createApiClient({ baseUrl, token: 'any-token-works-against-the-mock', retry: false });
  const paid: SearchCriterion = { field: 'status', operator: '=', value: 'paid' };
  const page = await api.searchInvoices({ criteria: [paid], order_by: 'amount', order_direction: 'desc', limit: 5 });
  if (!page.ok) throw new Error(`search answered ${page.status}: ${page.error.message}`);
  const first: Invoice | undefined = page.data.data[0];
  // The mock answers a documented status on request: the 409 of issuing a delivery twice.
  const issued = await api.issueDelivery(
    { delivery_id: 42, contact_id: 12, items: [{ item_id: 5001, quantity: 3, unit_price: 19.99 }] },
    { headers: { Prefer: 'code=409' } },
  );
  const { users } = await expectOk(api.listUsers());
  const validating = createApiClient({ baseUrl, token: 'any-token-works-against-the-mock', retry: false, timeout: 10_000, validateResponses: true });
  const validated = await expectOk(validating.listUsers());
  return {
    total: page.data.pagination.total,
    firstInvoiceNumber: first?.invoice_number,
    issueStatus: issued.status,
    issueError: issued.ok ? undefined : issued.error.error,
    users: users.length,
    statusOperators: searchRules.fields.status.operators,
    searchIsSafe: isSafeOperation('searchInvoices'),
    validatedUsers: validated.users.length,
  };
}

// Never called: each directive must meet a real type error, so types that decayed to `any` (a
// declaration file missing from the tarball, an import it cannot resolve) fail the type check.
export async function mistakes(api: ApiClient) {
  // @ts-expect-error status is compared with =, != or in only
  const greater: SearchCriterion = { field: 'status', operator: '>', value: 'paid' };
  // @ts-expect-error limit is an integer, not a string
  await api.searchInvoices({ limit: '10', criteria: [greater] });
  // @ts-expect-error unknown property in a closed request body
  await api.searchInvoices({ page: 2 });
  // @ts-expect-error a path id is a number
  await api.getInvoice('1');
  const found = await api.getInvoice(1);
  // @ts-expect-error data is only there after checking ok
  return found.data.invoice_number;
}
