// Delivery rows of one account and their items.
import { sql, type Kysely } from 'kysely';
import type { PricedLine } from '../domain/money.js';
import { compileOnly, rawStatement } from './compile-only.js';
import type { DatabaseSchema, DeliveryItemRow, DeliveryRow } from './schema.js';
import { templateOf } from './statement-template.js';

export type ItemRecord = Pick<DeliveryItemRow, 'id' | 'delivery_id' | 'item_id' | 'quantity' | 'unit_price' | 'total'>;
export interface DeliveryRecord {
  delivery: DeliveryWithCurrency;
  items: ItemRecord[];
}

const itemColumns = ['id', 'delivery_id', 'item_id', 'quantity', 'unit_price', 'total'] as const;

/**
 * A delivery's amounts are in its account's default currency; every read and write of a delivery row
 * returns that currency with it, so that the API can say which currency `total_amount` is in.
 */
const accountCurrency = sql<string>`(select accounts.default_currency from accounts where accounts.id = deliveries.account_id)`.as('currency');

/** A delivery row with the currency of its amounts. */
export type DeliveryWithCurrency = DeliveryRow & { currency: string };

export function findDeliveryRow(db: Kysely<DatabaseSchema>, accountId: number, deliveryId: number): Promise<DeliveryWithCurrency | undefined> {
  return db.selectFrom('deliveries').selectAll().select(accountCurrency).where('account_id', '=', accountId).where('id', '=', deliveryId).executeTakeFirst();
}

/** Reads the delivery and locks its row until the transaction ends: concurrent issues and updates queue. */
export function lockDeliveryRow(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number): Promise<DeliveryWithCurrency | undefined> {
  return trx
    .selectFrom('deliveries')
    .selectAll()
    .select(accountCurrency)
    .where('account_id', '=', accountId)
    .where('id', '=', deliveryId)
    .forUpdate()
    .executeTakeFirst();
}

/** Items of the given deliveries, each delivery's in the order they were sent. */
export function itemsOf(db: Kysely<DatabaseSchema>, accountId: number, deliveryIds: readonly number[]): Promise<ItemRecord[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('delivery_items')
    .select(itemColumns)
    .where('account_id', '=', accountId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('position')
    .execute();
}

export async function findDelivery(db: Kysely<DatabaseSchema>, accountId: number, deliveryId: number): Promise<DeliveryRecord | undefined> {
  const delivery = await findDeliveryRow(db, accountId, deliveryId);
  if (delivery === undefined) return undefined;
  return { delivery, items: await itemsOf(db, accountId, [delivery.id]) };
}

export async function listDeliveries(db: Kysely<DatabaseSchema>, accountId: number, limit: number, offset: number): Promise<DeliveryRecord[]> {
  const deliveries = await db
    .selectFrom('deliveries')
    .selectAll()
    .select(accountCurrency)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  const items = await itemsOf(
    db,
    accountId,
    deliveries.map((delivery) => delivery.id),
  );
  const byDelivery = new Map<number, ItemRecord[]>();
  for (const item of items) {
    const lines = byDelivery.get(item.delivery_id);
    if (lines === undefined) byDelivery.set(item.delivery_id, [item]);
    else lines.push(item);
  }
  return deliveries.map((delivery) => ({ delivery, items: byDelivery.get(delivery.id) ?? [] }));
}

export function insertDeliveryRow(
  trx: Kysely<DatabaseSchema>,
  values: { account_id: number; delivery_nr: string; contact_id: number; delivery_date: string | null; total_amount: string },
): Promise<DeliveryWithCurrency> {
  return trx
    .insertInto('deliveries')
    .values({ ...values, status: 'draft' })
    .returningAll()
    .returning(accountCurrency)
    .executeTakeFirstOrThrow();
}

export interface IssueValues {
  contact_id: number;
  /** The request's date; without one the draft's stays, else today's. */
  requested_date: string | undefined;
  /** Today's date (UTC), for a draft without a date. */
  today: string;
  total_amount: string;
}

/**
 * Issues the delivery if it is still a draft of the account, in one conditional update, and answers
 * the issued row; undefined when no draft matched (missing, another account's, or already issued).
 * The update takes the row lock: racing issues queue behind it and, once it commits, find the row no
 * longer a draft. A contact that is not a company client of the account fails the update with the
 * (account_id, contact_id) foreign key (see isUnknownContact).
 */
export async function issueDraftRow(
  trx: Kysely<DatabaseSchema>,
  accountId: number,
  deliveryId: number,
  values: IssueValues,
): Promise<DeliveryWithCurrency | undefined> {
  const { rows } = await trx.executeQuery(issueDraftStatement.bind({ ...values, requested_date: values.requested_date ?? null, accountId, deliveryId }));
  return rows[0];
}

// Compiled once (statement-template.ts): every issue runs it.
const issueDraftStatement = templateOf(
  ['contact_id', 'requested_date', 'today', 'total_amount', 'accountId', 'deliveryId'],
  ({ contact_id: contactId, requested_date: requestedDate, today, total_amount: totalAmount, accountId, deliveryId }) =>
    compileOnly
      .updateTable('deliveries')
      .set({
        status: sql.lit('issued'),
        contact_id: sql<number>`${contactId}`,
        // The draft's date is read by the update itself (the row is no longer read before it is written).
        delivery_date: sql<string>`coalesce(${requestedDate}::date, delivery_date, ${today}::date)`,
        total_amount: sql<string>`${totalAmount}`,
        updated_at: sql<string>`greatest(now(), updated_at + interval '1 millisecond')`,
        version: sql<number>`version + 1`,
      })
      .where('account_id', '=', sql<number>`${accountId}`)
      .where('id', '=', sql<number>`${deliveryId}`)
      .where('status', '=', sql.lit('draft'))
      .returningAll()
      .returning(accountCurrency),
);

/**
 * True for the error of a write naming a contact that is not a company client of the delivery's
 * account: SQLSTATE 23503 on deliveries_contact_fkey, whose key is (account_id, contact_id) (migration
 * 0001), so another account's client fails it like a missing one. Same fields on node-postgres and PGlite.
 */
export function isUnknownContact(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23503' && constraint === 'deliveries_contact_fkey';
}

/** Why an issue matched no draft: whether the contact is the account's, and the delivery's status if it is the account's. */
export async function issueRefusal(
  db: Kysely<DatabaseSchema>,
  accountId: number,
  deliveryId: number,
  contactId: number,
): Promise<{ contactKnown: boolean; status: DeliveryRow['status'] | undefined }> {
  const { rows } = await sql<{ contact_known: boolean; status: DeliveryRow['status'] | null }>`
    select
      exists (select 1 from company_clients where account_id = ${accountId} and id = ${contactId}) as contact_known,
      (select status from deliveries where account_id = ${accountId} and id = ${deliveryId}) as status`.execute(db);
  const row = rows[0]!;
  return { contactKnown: row.contact_known, status: row.status ?? undefined };
}

export type DeliveryChanges = Partial<Pick<DeliveryRow, 'contact_id' | 'delivery_date' | 'status' | 'total_amount'>>;

/** Writes `changes`, moves updated_at forward (by at least a millisecond) and the version by one. */
export function updateDeliveryRow(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number, changes: DeliveryChanges): Promise<DeliveryWithCurrency> {
  return trx
    .updateTable('deliveries')
    .set({ ...changes, updated_at: sql<string>`greatest(now(), updated_at + interval '1 millisecond')`, version: sql<number>`version + 1` })
    .where('account_id', '=', accountId)
    .where('id', '=', deliveryId)
    .returningAll()
    .returning(accountCurrency)
    .executeTakeFirstOrThrow();
}

/** Replaces every line of the delivery with `lines`, in their order: one statement, one round trip. */
export async function replaceItems(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number, lines: readonly PricedLine[]): Promise<ItemRecord[]> {
  const { rows } = await trx.executeQuery(
    replaceItemsStatement.bind({
      accountId,
      deliveryId,
      itemIds: lines.map((line) => line.item_id),
      quantities: lines.map((line) => line.quantity),
      unitPrices: lines.map((line) => line.unit_price),
      totals: lines.map((line) => line.total),
    }),
  );
  return rows;
}

// Compiled once (statement-template.ts): every issue and every delivery create runs it.
const replaceItemsStatement = templateOf(
  ['accountId', 'deliveryId', 'itemIds', 'quantities', 'unitPrices', 'totals'],
  ({ accountId, deliveryId, itemIds, quantities, unitPrices, totals }) =>
    // The lines travel as four arrays (one parameter each, whatever their number) and come back as rows
    // through unnest, numbered from 0 by `with ordinality` to keep their order. The insert reads
    // `deleted` (a condition that always holds) so that the delete runs to completion first: the
    // parts of one statement otherwise run in no set order, and a new line could meet an old one on
    // (delivery_id, position). A row deleted earlier in the same statement does not count as taken.
    rawStatement(sql<ItemRecord>`
    with deleted as (
      delete from delivery_items where account_id = ${accountId} and delivery_id = ${deliveryId} returning id
    )
    insert into delivery_items (account_id, delivery_id, position, item_id, quantity, unit_price, total)
    select ${accountId}::bigint, ${deliveryId}::bigint, (line.ordinality - 1)::integer, line.item_id, line.quantity, line.unit_price, line.total
    from unnest(${itemIds}::bigint[], ${quantities}::numeric[], ${unitPrices}::numeric[], ${totals}::numeric[])
      with ordinality as line (item_id, quantity, unit_price, total, ordinality)
    where (select count(*) from deleted) >= 0
    order by line.ordinality
    returning ${sql.join(itemColumns.map((column) => sql.ref(column)))}`),
);

/** Removes the delivery (its row is locked already) and, by the foreign key's cascade, its items. */
export async function deleteDeliveryRow(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number): Promise<void> {
  await trx.deleteFrom('deliveries').where('account_id', '=', accountId).where('id', '=', deliveryId).execute();
}
