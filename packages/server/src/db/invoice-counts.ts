// The kept invoice counts (migration 0007) against a count of the invoices themselves: what
// `pnpm db:check-totals` reports, and, with `--repair`, writes back. The triggers keep the counts
// exact; this finds the damage of anything that went around them (triggers disabled, a count edited by
// hand, `session_replication_role = replica`).
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from './schema.js';

/** One (account, status, currency) whose kept count is not the number of its invoices. */
export interface CountDifference {
  accountId: number;
  status: string;
  currency: string;
  /** The count in invoice_counts (0 when it has no row). */
  kept: number;
  /** The invoices that have this account, status and currency. */
  counted: number;
}

export interface CountComparison {
  /** Every (account, status, currency) that has a kept count or an invoice. */
  groups: number;
  differences: CountDifference[];
}

interface ComparedRow {
  account_id: number;
  status: string;
  currency: string;
  kept: number;
  counted: number;
}

/**
 * Kept counts and a fresh count side by side, in one statement and so one snapshot: a count is
 * written in the transaction of the invoice write it follows, so even while invoices are being
 * written the two agree unless a count is wrong.
 */
export async function compareInvoiceCounts(db: Kysely<DatabaseSchema>): Promise<CountComparison> {
  const { rows } = await sql<ComparedRow>`
    select account_id, status, currency, coalesce(kept.invoices, 0) as kept, coalesce(counted.invoices, 0) as counted
    from invoice_counts kept
    full join (select account_id, status, currency, count(*) as invoices from invoices group by account_id, status, currency) counted
      using (account_id, status, currency)
    order by account_id, status, currency`.execute(db);
  const differences = rows
    .filter((row) => row.kept !== row.counted)
    .map((row) => ({ accountId: row.account_id, status: row.status, currency: row.currency, kept: row.kept, counted: row.counted }));
  return { groups: rows.length, differences };
}

/**
 * Sets every wrong count to the number of its invoices, in one transaction, and returns what it fixed.
 * The lock waits for the invoice writes in flight and holds new ones until the repair commits, so
 * none can move a count between reading and writing it; it also excludes a second repair.
 */
export function repairInvoiceCounts(db: Kysely<DatabaseSchema>): Promise<CountComparison> {
  return db.transaction().execute(async (trx) => {
    await sql`lock table invoices in share row exclusive mode`.execute(trx);
    const comparison = await compareInvoiceCounts(trx);
    const { differences } = comparison;
    if (differences.length > 0) {
      await sql`
        insert into invoice_counts (account_id, status, currency, invoices)
        select * from unnest(
          cast(${differences.map((difference) => difference.accountId)} as bigint[]),
          cast(${differences.map((difference) => difference.status)} as text[]),
          cast(${differences.map((difference) => difference.currency)} as text[]),
          cast(${differences.map((difference) => difference.counted)} as bigint[])
        )
        on conflict (account_id, status, currency) do update set invoices = excluded.invoices`.execute(trx);
    }
    return comparison;
  });
}
