import type { InvoiceStatus } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { canTransition, formatInvoiceNumber, invoiceTransitions, planInvoiceUpdate, type InvoiceState } from '../../src/domain/invoice-rules.js';

const draft: InvoiceState = {
  id: 42,
  invoice_number: 'INV-000042',
  client_id: 3,
  amount: '100.00',
  currency: 'CHF',
  status: 'draft',
  due_date: '2026-03-31',
  description: 'Consulting',
};
const statuses: InvoiceStatus[] = ['draft', 'sent', 'paid', 'overdue', 'cancelled'];

function conflictOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a conflict');
}

describe('invoice status transitions', () => {
  const allowed = new Set(['draft>sent', 'draft>cancelled', 'sent>paid', 'sent>overdue', 'sent>cancelled', 'overdue>paid', 'overdue>cancelled']);

  it.each(statuses.flatMap((from) => statuses.filter((to) => to !== from).map((to) => [from, to] as const)))('%s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(allowed.has(`${from}>${to}`));
  });

  it('has final states paid and cancelled', () => {
    expect(invoiceTransitions.paid).toEqual([]);
    expect(invoiceTransitions.cancelled).toEqual([]);
  });
});

describe('planInvoiceUpdate', () => {
  it('changes only the fields present that differ', () => {
    expect(planInvoiceUpdate(draft, { amount: 100, description: 'Consulting', currency: 'EUR' })).toEqual({ currency: 'EUR' });
    expect(planInvoiceUpdate(draft, {})).toEqual({});
  });

  it('treats an equal amount written differently as no change', () => {
    expect(planInvoiceUpdate(draft, { amount: 100.0 })).toEqual({});
    expect(planInvoiceUpdate({ ...draft, amount: '19.90' }, { amount: 19.9 })).toEqual({});
  });

  it('lets a draft change every field and move to sent at once', () => {
    expect(planInvoiceUpdate(draft, { amount: 120.5, due_date: '2026-04-30', status: 'sent' })).toEqual({
      amount: 120.5,
      due_date: '2026-04-30',
      status: 'sent',
    });
  });

  it('rejects a bad transition with invalid_transition', () => {
    expect(conflictOf(() => planInvoiceUpdate(draft, { status: 'paid' }))).toMatchObject({ status: 409, code: 'invalid_transition' });
    expect(conflictOf(() => planInvoiceUpdate({ ...draft, status: 'paid' }, { status: 'sent' }))).toMatchObject({ code: 'invalid_transition' });
  });

  it('treats the current status as no change, not as a transition', () => {
    expect(planInvoiceUpdate({ ...draft, status: 'paid' }, { status: 'paid' })).toEqual({});
  });

  it('locks every field but status and description once the invoice left draft', () => {
    const sent = { ...draft, status: 'sent' as const };
    for (const update of [{ amount: 1 }, { currency: 'EUR' }, { due_date: '2027-01-01' }, { client_id: 9 }, { invoice_number: 'X-1' }]) {
      const error = conflictOf(() => planInvoiceUpdate(sent, update));
      expect(error).toMatchObject({ status: 409, code: 'invoice_locked', details: { field: Object.keys(update)[0] } });
    }
    expect(planInvoiceUpdate(sent, { description: 'Paid by card', status: 'paid' })).toEqual({ description: 'Paid by card', status: 'paid' });
  });

  it('accepts the current value of a locked field as a no-op', () => {
    const sent = { ...draft, status: 'sent' as const };
    expect(planInvoiceUpdate(sent, { amount: 100, currency: 'CHF', status: 'paid' })).toEqual({ status: 'paid' });
  });

  it('reports a bad transition before the lock', () => {
    const paid = { ...draft, status: 'paid' as const };
    expect(conflictOf(() => planInvoiceUpdate(paid, { amount: 5, status: 'draft' }))).toMatchObject({ code: 'invalid_transition' });
  });
});

describe('formatInvoiceNumber', () => {
  it('pads to six digits and keeps longer numbers whole', () => {
    expect(formatInvoiceNumber(42)).toBe('INV-000042');
    expect(formatInvoiceNumber(1234567)).toBe('INV-1234567');
  });
});
