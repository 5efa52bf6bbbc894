// The writes: issuing drafts (each request issues a different one, prepared beforehand in one
// statement) and creating invoices, through the service, each with an Idempotency-Key of its own (the
// key is claimed and the answer stored in the write's transaction: the path a retrying client takes).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { DeliveryIssue, InvoiceCreate } from '@invoice-api/contract';
import type { Figures, Measure } from './figures.js';
import { runHttpLoad } from './http-load.js';
import { benchAccountId } from './scenarios.js';

export interface DraftPool {
  ids: number[];
  contactId: number;
  /** The next draft to issue: shared by every run on the pool, so that no draft is issued twice. */
  next: number;
}

/** `count` draft deliveries of the bench account, numbered on from its counter like the service would. */
export async function createDrafts(databaseUrl: string, count: number): Promise<DraftPool> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const [account] = (
      await client.query<{ first: string; contact_id: string }>(
        `update accounts set next_delivery_number = next_delivery_number + $2
         where id = $1
         returning next_delivery_number - $2 as first,
                   (select min(id) from company_clients where account_id = $1) as contact_id`,
        [benchAccountId, count],
      )
    ).rows;
    if (account === undefined) throw new Error('The bench account is missing');
    const inserted = await client.query<{ id: string }>(
      `insert into deliveries (account_id, delivery_nr, contact_id, status)
       select $1, 'LS-' || lpad((($2::bigint) + n)::text, 6, '0'), $3, 'draft'
       from generate_series(0, $4::int - 1) n
       returning id`,
      [benchAccountId, account.first, account.contact_id, count],
    );
    await client.query('commit');
    return { ids: inserted.rows.map((row) => Number(row.id)), contactId: Number(account.contact_id), next: 0 };
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}

export function issueBody(deliveryId: number, contactId: number): DeliveryIssue {
  return {
    delivery_id: deliveryId,
    contact_id: contactId,
    delivery_date: '2026-11-20',
    items: [
      { item_id: 1001, quantity: 2, unit_price: 19.99 },
      { item_id: 1002, quantity: 1.5, unit_price: 7.125 },
      { item_id: 1003, quantity: 10, unit_price: 0.3333 },
    ],
  };
}

/** Every write carries an Idempotency-Key of its own, as a client that retries safely sends it. */
const idempotencyKey = (): Record<string, string> => ({ 'idempotency-key': randomUUID() });

export async function benchIssue(serviceUrl: string, token: string, drafts: DraftPool, connections: number, measure: Measure): Promise<Figures> {
  return runHttpLoad({
    url: serviceUrl,
    method: 'POST',
    path: '/2.0/delivery/issue',
    headers: { authorization: `Bearer ${token}` },
    // Past the prepared drafts the ids repeat, and those answers (409) count as errors in the table.
    nextBody: () => issueBody(drafts.ids[drafts.next++ % drafts.ids.length] ?? 0, drafts.contactId),
    nextHeaders: idempotencyKey,
    connections,
    measure,
    expectStatus: 200,
  });
}

export function createInvoiceBody(clientId: number): InvoiceCreate {
  return { client_id: clientId, amount: 1234.5, currency: 'CHF', due_date: '2026-12-31', description: 'Benchmark invoice' };
}

export async function benchCreateInvoice(serviceUrl: string, token: string, clientId: number, connections: number, measure: Measure): Promise<Figures> {
  return runHttpLoad({
    url: serviceUrl,
    method: 'POST',
    path: '/api/v1/invoices',
    headers: { authorization: `Bearer ${token}` },
    body: createInvoiceBody(clientId),
    nextHeaders: idempotencyKey,
    connections,
    measure,
    expectStatus: 201,
  });
}
