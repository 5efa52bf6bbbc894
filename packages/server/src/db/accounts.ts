// Per-account counters for generated document numbers. Taking a number updates the account's row,
// which locks it until the transaction ends: concurrent creates in one account queue here and never
// receive the same number, and a rolled-back create gives its number back.
import { sql, type Expression, type Kysely, type QueryCreator } from 'kysely';
import { compileOnly } from './compile-only.js';
import type { DatabaseSchema } from './schema.js';
import { templateOf } from './statement-template.js';

export type Counter = 'next_invoice_number' | 'next_delivery_number';

/**
 * The UPDATE that moves `counter` on by one, returning the number taken as `taken`. A query, not a
 * call, so that a statement can take the number and use it at once (db/invoices.ts puts it in a WITH).
 */
export function nextNumberUpdate(db: QueryCreator<DatabaseSchema>, accountId: number | Expression<number>, counter: Counter) {
  return (
    db
      .updateTable('accounts')
      // `+ 1` written out, not a bound 1: a statement template (db/invoices.ts) takes no value of its own.
      .set({ [counter]: sql<number>`${sql.ref(counter)} + 1` })
      .where('id', '=', accountId)
      .returning(sql<number>`${sql.ref(counter)} - 1`.as('taken'))
  );
}

/** Reserves the account's next number of `counter` inside the caller's transaction. */
export async function takeNextNumber(trx: Kysely<DatabaseSchema>, accountId: number, counter: Counter): Promise<number> {
  const row = await nextNumberUpdate(trx, accountId, counter).executeTakeFirst();
  if (row === undefined) throw new Error(`Account ${accountId} does not exist`);
  return row.taken;
}

const lockAccountStatement = templateOf(['accountId'], ({ accountId }) =>
  compileOnly.selectFrom('accounts').select('id').where('id', '=', sql<number>`${accountId}`).forNoKeyUpdate(),
);

/**
 * Locks the account's row before a write of its invoices touches any invoice. Every such write ends up
 * updating that row (the version triggers of migration 0006; a generated number's counter), so taking
 * it first puts every invoice write's locks in one order, account then invoice: two writes may wait
 * for each other, but never in a cycle. Taken last, a given number's insert would hold its new index
 * entry while its trigger waits for the account, as a generated create holding the account waits for
 * that entry: a deadlock. FOR NO KEY UPDATE is the lock the later UPDATE of the row takes anyway.
 */
export async function lockAccountForInvoiceWrite(trx: Kysely<DatabaseSchema>, accountId: number): Promise<void> {
  const { rows } = await trx.executeQuery(lockAccountStatement.bind({ accountId }));
  if (rows.length === 0) throw new Error(`Account ${accountId} does not exist`);
}
