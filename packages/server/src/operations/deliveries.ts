// Delivery operations: create a draft, read, list, change a draft, issue it. Every write runs in one
// transaction that locks the delivery's row first (an issue by its conditional update), so an issue
// and a concurrent issue or update of the same delivery queue behind each other and the loser sees
// the winner's committed state.
import { operationTable, type DeliveryItemInput, type Handler } from '@invoice-api/contract';
import type { Kysely } from 'kysely';
import type { RequestContext } from '../context.js';
import { takeNextNumber } from '../db/accounts.js';
import {
  deleteDeliveryRow,
  findDelivery,
  insertDeliveryRow,
  isUnknownContact,
  issueDraftRow,
  issueRefusal,
  itemsOf,
  listDeliveries as readDeliveries,
  lockDeliveryRow,
  replaceItems,
  updateDeliveryRow,
  type DeliveryChanges,
  type ItemRecord,
} from '../db/deliveries.js';
import { findCompanyClient } from '../db/directory.js';
import { toDelivery } from '../db/mappers.js';
import type { DatabaseSchema } from '../db/schema.js';
import { assertDraft, assertItemCount, formatDeliveryNumber, issueDate } from '../domain/delivery-rules.js';
import { priceLines, sameAmount, type PricedLines } from '../domain/money.js';
import { ApiError } from '../errors.js';
import { writeOnce } from '../idempotency/index.js';
import { assertIfMatch, entityTag, lockForCondition } from '../preconditions/index.js';
import { accountOf, locationOf } from './caller.js';

/** The list's paging defaults, as the spec's `limit` and `offset` query parameters declare them. */
const listDefaults = { limit: queryDefault('limit'), offset: queryDefault('offset') };

function queryDefault(name: string): number {
  const parameter: { name: string; default?: unknown } | undefined = operationTable.listDeliveries.queryParams.find((entry) => entry.name === name);
  if (typeof parameter?.default !== 'number') throw new Error(`The spec must give listDeliveries' ${name} parameter a numeric default`);
  return parameter.default;
}

function notFound(deliveryId: number): ApiError {
  return ApiError.notFound(`Delivery ${deliveryId} not found.`);
}

function unknownContact(contactId: number): ApiError {
  return ApiError.invalid('contact_id', 'must name a company client of your account', `Company client ${contactId} does not exist in your account.`);
}

async function assertContact(db: Kysely<DatabaseSchema>, accountId: number, contactId: number): Promise<void> {
  if ((await findCompanyClient(db, accountId, contactId)) === undefined) throw unknownContact(contactId);
}

/** True when the stored lines are exactly the requested ones, in order (an update that changes nothing). */
function sameLines(stored: readonly ItemRecord[], requested: PricedLines['lines']): boolean {
  return (
    stored.length === requested.length &&
    stored.every((line, index) => {
      const other = requested[index]!;
      return line.item_id === other.item_id && sameAmount(line.quantity, other.quantity) && sameAmount(line.unit_price, other.unit_price);
    })
  );
}

function pricedItems(items: readonly DeliveryItemInput[] | undefined, forIssue: boolean): PricedLines | undefined {
  if (items === undefined) return undefined;
  assertItemCount(items.length, forIssue);
  return priceLines(items);
}

export const createDelivery: Handler<'createDelivery', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const { contact_id: contactId, delivery_date: deliveryDate, items } = request.body;
  const priced = pricedItems(items, false) ?? priceLines([]);
  return writeOnce(context, async (trx) => {
    await assertContact(trx, accountId, contactId);
    const number = await takeNextNumber(trx, accountId, 'next_delivery_number');
    const delivery = await insertDeliveryRow(trx, {
      account_id: accountId,
      delivery_nr: formatDeliveryNumber(number),
      contact_id: contactId,
      delivery_date: deliveryDate ?? null,
      total_amount: priced.totalAmount,
    });
    const lines = await replaceItems(trx, accountId, delivery.id, priced.lines);
    return {
      status: 201 as const,
      headers: { Location: locationOf(operationTable.getDelivery.path, delivery.id) },
      body: { delivery: toDelivery(delivery, lines) },
    };
  });
};

export const getDelivery: Handler<'getDelivery', RequestContext> = async (request, context) => {
  const found = await findDelivery(context.db.db, accountOf(context), request.params.delivery_id);
  if (found === undefined) throw notFound(request.params.delivery_id);
  return { status: 200, headers: { ETag: entityTag(found.delivery.id, found.delivery.version) }, body: { delivery: toDelivery(found.delivery, found.items) } };
};

export const listDeliveries: Handler<'listDeliveries', RequestContext> = async (request, context) => {
  const limit = request.query.limit ?? listDefaults.limit;
  const offset = request.query.offset ?? listDefaults.offset;
  const deliveries = await readDeliveries(context.db.db, accountOf(context), limit, offset);
  return { status: 200, body: { deliveries: deliveries.map(({ delivery, items }) => toDelivery(delivery, items)) } };
};

export const updateDelivery: Handler<'updateDelivery', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const deliveryId = request.params.delivery_id;
  const { contact_id: contactId, delivery_date: deliveryDate, items } = request.body;
  const priced = pricedItems(items, false);
  if (contactId !== undefined) await assertContact(context.db.db, accountId, contactId);
  const updated = await context.db.db.transaction().execute(async (trx) => {
    const delivery = await lockForCondition('delivery', context.ifMatch, () => lockDeliveryRow(trx, accountId, deliveryId));
    if (delivery === undefined) throw notFound(deliveryId);
    // Under the row lock, before the state check: a stale If-Match is 412 even on an issued delivery.
    assertIfMatch(context.ifMatch, entityTag(delivery.id, delivery.version), `Delivery ${deliveryId}`);
    assertDraft(delivery);
    const storedItems = await itemsOf(trx, accountId, [deliveryId]);
    const changes: DeliveryChanges = {};
    if (contactId !== undefined && contactId !== delivery.contact_id) changes.contact_id = contactId;
    if (deliveryDate !== undefined && deliveryDate !== delivery.delivery_date) changes.delivery_date = deliveryDate;
    const itemsChange = priced !== undefined && !sameLines(storedItems, priced.lines);
    if (itemsChange) changes.total_amount = priced.totalAmount;
    if (Object.keys(changes).length === 0) return { delivery, items: storedItems };
    const row = await updateDeliveryRow(trx, accountId, deliveryId, changes);
    return { delivery: row, items: itemsChange ? await replaceItems(trx, accountId, deliveryId, priced.lines) : storedItems };
  });
  return {
    status: 200,
    headers: { ETag: entityTag(updated.delivery.id, updated.delivery.version) },
    body: { delivery: toDelivery(updated.delivery, updated.items) },
  };
};

export const issueDelivery: Handler<'issueDelivery', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const { delivery_id: deliveryId, contact_id: contactId, delivery_date: deliveryDate, items } = request.body;
  // Validation (400) comes before existence (404) and state (409).
  const priced = pricedItems(items, true) ?? priceLines([]);
  // Four round trips when it succeeds: BEGIN, the conditional update, the items, COMMIT. The contact
  // is not looked up first: the update's foreign key checks it, and only a refused issue asks why.
  return writeOnce(context, async (trx) => {
    // The conditional update takes the row lock, so racing issues queue; once the winner commits,
    // each later one finds the row no longer a draft, matches nothing, and gets 409 below.
    const delivery = await issueDraftRow(trx, accountId, deliveryId, {
      contact_id: contactId,
      requested_date: deliveryDate,
      // issueDate's rule: the request's date, else the draft's (read by the update), else today UTC.
      today: issueDate(undefined, null, new Date()),
      total_amount: priced.totalAmount,
    }).catch((error: unknown) => {
      if (isUnknownContact(error)) throw unknownContact(contactId);
      throw error;
    });
    if (delivery === undefined) return refuseIssue(trx, accountId, deliveryId, contactId);
    return { status: 200 as const, body: toDelivery(delivery, await replaceItems(trx, accountId, deliveryId, priced.lines)) };
  });
};

/**
 * Throws the answer to an issue that matched no draft, in the order the checks have always had: a
 * contact that is not the account's (400), then a delivery that is not (404), then one already issued
 * (409). An update that matches nothing never reaches the foreign key, so the contact is checked here.
 */
async function refuseIssue(trx: Kysely<DatabaseSchema>, accountId: number, deliveryId: number, contactId: number): Promise<never> {
  const { contactKnown, status } = await issueRefusal(trx, accountId, deliveryId, contactId);
  if (!contactKnown) throw unknownContact(contactId);
  // A draft here was created after the update looked (nothing turns an issued delivery back into a
  // draft): when the update ran, there was no such delivery.
  if (status === undefined || status === 'draft') throw notFound(deliveryId);
  assertDraft({ id: deliveryId, status });
  throw new Error(`Delivery ${deliveryId} matched no draft yet has status ${status}`);
}

export const deleteDelivery: Handler<'deleteDelivery', RequestContext> = async (request, context) => {
  const accountId = accountOf(context);
  const deliveryId = request.params.delivery_id;
  await context.db.db.transaction().execute(async (trx) => {
    const delivery = await lockForCondition('delivery', context.ifMatch, () => lockDeliveryRow(trx, accountId, deliveryId));
    if (delivery === undefined) throw notFound(deliveryId);
    // Under the row lock, before the state check: a stale If-Match is 412 even on an issued delivery.
    assertIfMatch(context.ifMatch, entityTag(delivery.id, delivery.version), `Delivery ${deliveryId}`);
    assertDraft(delivery);
    await deleteDeliveryRow(trx, accountId, deliveryId);
  });
  return { status: 204 };
};
