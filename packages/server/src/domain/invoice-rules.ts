// Invoice rules of product-decisions.md ("Fields not shown"): which status may follow which, and
// which fields an invoice keeps fixed once it has left `draft`. No storage, no HTTP: the update
// handler asks `planInvoiceUpdate` what to write, and writes exactly that or nothing.
import type { InvoiceStatus, InvoiceUpdate } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import { sameAmount } from './money.js';

/** The allowed next statuses of each status; `paid` and `cancelled` are final. */
export const invoiceTransitions: Readonly<Record<InvoiceStatus, readonly InvoiceStatus[]>> = {
  draft: ['sent', 'cancelled'],
  sent: ['paid', 'overdue', 'cancelled'],
  overdue: ['paid', 'cancelled'],
  paid: [],
  cancelled: [],
};

/** Statuses a new invoice may start in. */
export const creatableStatuses: readonly InvoiceStatus[] = ['draft', 'sent'];

export function canTransition(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return invoiceTransitions[from].includes(to);
}

/** Fields that may still change after an invoice has left `draft`. */
const fieldsEditableAfterDraft: ReadonlySet<keyof InvoiceUpdate> = new Set(['status', 'description']);

/** The stored values an update is compared with. */
export interface InvoiceState {
  id: number;
  invoice_number: string;
  client_id: number;
  amount: string | number;
  currency: string;
  status: InvoiceStatus;
  due_date: string;
  description: string;
}

export type InvoiceChanges = Partial<Pick<InvoiceState, 'invoice_number' | 'client_id' | 'currency' | 'status' | 'due_date' | 'description'>> & {
  amount?: number;
};

function sameValue(field: keyof InvoiceUpdate, stored: InvoiceState, requested: unknown): boolean {
  if (field === 'amount') return sameAmount(stored.amount, requested as number);
  return stored[field] === requested;
}

/**
 * What an update changes, or the 409 it earns. Order matters and follows the product rules: a bad
 * status transition is reported before the lock; sending a field's current value is never a change
 * (so never a lock violation). An empty result means nothing is written and `updated_at` stays.
 */
export function planInvoiceUpdate(current: InvoiceState, update: InvoiceUpdate): InvoiceChanges {
  if (update.status !== undefined && update.status !== current.status && !canTransition(current.status, update.status)) {
    throw ApiError.conflict('invalid_transition', `Invoice ${current.id} cannot move from '${current.status}' to '${update.status}'.`);
  }
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(update) as Array<[keyof InvoiceUpdate, unknown]>) {
    if (value === undefined || sameValue(field, current, value)) continue;
    if (current.status !== 'draft' && !fieldsEditableAfterDraft.has(field)) {
      throw ApiError.conflict('invoice_locked', `Invoice ${current.id} is '${current.status}': only status and description may change, not ${field}.`, {
        field,
        issue: 'the invoice has left draft; only status and description may change',
      });
    }
    changes[field] = value;
  }
  return changes as InvoiceChanges;
}

/**
 * Generated invoice numbers: the prefix + the sequence zero-padded to `digits` (longer sequences keep
 * all their digits). Data, not only a function, because the create statement formats the number in
 * SQL (db/invoices.ts) from these same two values.
 */
export const invoiceNumberFormat = { prefix: 'INV-', digits: 6 } as const;

export function formatInvoiceNumber(sequence: number): string {
  return `${invoiceNumberFormat.prefix}${String(sequence).padStart(invoiceNumberFormat.digits, '0')}`;
}

/** Throws 409 `invoice_locked`, naming the invoice and its status, unless the invoice is a draft: only a draft can be removed. */
export function assertRemovable(invoice: { id: number; status: InvoiceStatus }): void {
  if (invoice.status !== 'draft')
    throw ApiError.conflict('invoice_locked', `Invoice ${invoice.id} is '${invoice.status}': only a draft invoice can be removed.`);
}
