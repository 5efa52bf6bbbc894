// One account's calls to a started test service, through real HTTP: JSON in, the bearer token of the
// account, and the drafts that ETag, If-Match and removal tests start from.
import { expect } from 'vitest';
import type { TestAccount } from '../../support/fixtures.js';

export interface AccountCalls {
  /** Sends `body` as JSON when given; `as` is another bearer token than the account's. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>, as?: string): Promise<Response>;
  /** A new invoice of the account's first client (a draft unless `status` says `sent`), by id. */
  newInvoice(status?: 'draft' | 'sent'): Promise<number>;
  /** A new draft delivery to the account's first client, by id. */
  newDelivery(): Promise<number>;
}

/** Calls for `account` with `bearer` to the service at `url()`, read when each call is made (set up in beforeAll). */
export function accountCalls(url: () => string, bearer: () => string, account: () => TestAccount): AccountCalls {
  const call: AccountCalls['call'] = (method, path, body, headers = {}, as = bearer()) =>
    fetch(`${url()}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    call,
    async newInvoice(status = 'draft') {
      const response = await call('POST', '/api/v1/invoices', {
        client_id: account().clientIds[0],
        amount: 5,
        currency: 'CHF',
        due_date: '2026-12-31',
        status,
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { invoice: { id: number } }).invoice.id;
    },
    async newDelivery() {
      const response = await call('POST', '/2.0/delivery', { contact_id: account().clientIds[0] });
      expect(response.status).toBe(201);
      return ((await response.json()) as { delivery: { id: number } }).delivery.id;
    },
  };
}
