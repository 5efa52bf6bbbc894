// Delivery rules of product-decisions.md: a draft may change and be issued once; an issued delivery
// is immutable; issuing needs 1 to 500 lines and a date (the request's, the draft's, else today UTC).
import type { DeliveryStatus } from '@invoice-api/contract';
import { ApiError } from '../errors.js';

export const maxDeliveryItems = 500;

/** Throws 409 `already_issued`, naming the delivery, unless the delivery is still a draft. */
export function assertDraft(delivery: { id: number; status: DeliveryStatus }): void {
  if (delivery.status !== 'draft') {
    throw ApiError.conflict('already_issued', `Delivery ${delivery.id} is already issued and can no longer change.`);
  }
}

/** Issuing needs at least one line and at most 500; a draft may hold 0 to 500. */
export function assertItemCount(count: number, forIssue: boolean): void {
  const minimum = forIssue ? 1 : 0;
  if (count < minimum || count > maxDeliveryItems) {
    throw ApiError.invalid('items', `must hold ${minimum} to ${maxDeliveryItems} items${forIssue ? ' to issue a delivery' : ''}`);
  }
}

/** The date an issued delivery carries: the request's, else the draft's, else today's date in UTC. */
export function issueDate(requested: string | undefined, draftDate: string | null, now: Date): string {
  return requested ?? draftDate ?? now.toISOString().slice(0, 10);
}

/** `LS-` + the number zero-padded to 6 digits. */
export function formatDeliveryNumber(sequence: number): string {
  return `LS-${String(sequence).padStart(6, '0')}`;
}
