// Delivery rows of one account and their items.
import { sql, type Kysely } from 'kysely';
import type { PricedLine } from '../domain/money.js';
import type { DatabaseSchema, DeliveryItemRow, DeliveryRow } from './schema.js';

export type ItemRecord = Pick<DeliveryItemRow, 'id' | 'delivery_id' | 'item_id' | 'quantity' | 'unit_price' | 'total'>;
export interface DeliveryRecord {
  delivery: DeliveryRow;
  items: ItemRecord[];
}

const itemColumns = ['id', 'delivery_id', 'item_id', 'quantity', 'unit_price', 'total'] as const;

export function findDeliveryRow(db: Kysely<DatabaseSchema>, accountId: number, deliveryId: number): Promise<DeliveryRow | undefined> {
  return db.selectFrom('deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', deliveryId).executeTakeFirst();
}

/** Reads the delivery and locks its row until the transaction ends: concurrent issues and updates queue. */
export function lockDeliveryRow(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number): Promise<DeliveryRow | undefined> {
  return trx.selectFrom('deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', deliveryId).forUpdate().executeTakeFirst();
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
  const deliveries = await db.selectFrom('deliveries').selectAll().where('account_id', '=', accountId).orderBy('id').limit(limit).offset(offset).execute();
  const items = await itemsOf(db, accountId, deliveries.map((delivery) => delivery.id));
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
): Promise<DeliveryRow> {
  return trx.insertInto('deliveries').values({ ...values, status: 'draft' }).returningAll().executeTakeFirstOrThrow();
}

export type DeliveryChanges = Partial<Pick<DeliveryRow, 'contact_id' | 'delivery_date' | 'status' | 'total_amount'>>;

/** Writes `changes` and moves updated_at forward (by at least a millisecond). */
export function updateDeliveryRow(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number, changes: DeliveryChanges): Promise<DeliveryRow> {
  return trx
    .updateTable('deliveries')
    .set({ ...changes, updated_at: sql<string>`greatest(now(), updated_at + interval '1 millisecond')` })
    .where('account_id', '=', accountId)
    .where('id', '=', deliveryId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces every line of the delivery with `lines`, in their order. */
export async function replaceItems(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number, lines: readonly PricedLine[]): Promise<ItemRecord[]> {
  await trx.deleteFrom('delivery_items').where('account_id', '=', accountId).where('delivery_id', '=', deliveryId).execute();
  if (lines.length === 0) return [];
  return trx
    .insertInto('delivery_items')
    .values(lines.map((line, position) => ({ account_id: accountId, delivery_id: deliveryId, position, ...line })))
    .returning(itemColumns)
    .execute();
}
