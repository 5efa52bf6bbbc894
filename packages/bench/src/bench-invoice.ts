// The invoice the getInvoice scenario reads: the newest of the bench account.
import pg from 'pg';
import { benchAccountId } from './scenarios.js';

export async function benchInvoiceId(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string | null }>('select max(id) as id from invoices where account_id = $1', [benchAccountId]);
    const id = Number(rows[0]?.id);
    if (!Number.isSafeInteger(id)) throw new Error('The bench account has no invoice');
    return id;
  } finally {
    await client.end();
  }
}
