// The business rules the model predicts answers with, written from the product decisions
// (/work/shared/spec/product-decisions.md, stated in openapi/) and NOT imported from the service: the
// model is a second, independent reading of the same rules, so that a slip in the service's code
// shows as a disagreement.
import { loadSpec, type Invoice, type InvoiceStatus } from '@invoice-api/contract';

export const invoiceTransitions: Readonly<Record<InvoiceStatus, readonly InvoiceStatus[]>> = {
  draft: ['sent', 'cancelled'],
  sent: ['paid', 'overdue', 'cancelled'],
  overdue: ['paid', 'cancelled'],
  paid: [],
  cancelled: [],
};

/** Fields that may still change once an invoice has left `draft`. */
const editableAfterDraft = new Set(['status', 'description']);

export type InvoiceFields = Pick<Invoice, 'invoice_number' | 'client_id' | 'amount' | 'currency' | 'status' | 'due_date' | 'description'>;

export type UpdateOutcome =
  | { kind: 'changed'; fields: Partial<InvoiceFields> }
  | { kind: 'unchanged' }
  | { kind: 'conflict'; error: 'invalid_transition' | 'invoice_locked' };

/** What an update does to a stored invoice: the transition first, then the lock, then the changes. */
export function planInvoiceUpdate(current: InvoiceFields, update: Partial<InvoiceFields>): UpdateOutcome {
  if (update.status !== undefined && update.status !== current.status && !invoiceTransitions[current.status].includes(update.status)) {
    return { kind: 'conflict', error: 'invalid_transition' };
  }
  const fields: Partial<InvoiceFields> = {};
  for (const [field, value] of Object.entries(update) as Array<[keyof InvoiceFields, unknown]>) {
    if (value === undefined || current[field] === value) continue;
    if (current.status !== 'draft' && !editableAfterDraft.has(field)) return { kind: 'conflict', error: 'invoice_locked' };
    Object.assign(fields, { [field]: value });
  }
  return Object.keys(fields).length === 0 ? { kind: 'unchanged' } : { kind: 'changed', fields };
}

/** A line as the generator draws it: quantity in thousandths, unit price in ten-thousandths (exact). */
export interface LineInput {
  item_id: number;
  quantityThousandths: number;
  unitPriceTenThousandths: number;
}

export function lineRequest(line: LineInput): { item_id: number; quantity: number; unit_price: number } {
  return { item_id: line.item_id, quantity: line.quantityThousandths / 1_000, unit_price: line.unitPriceTenThousandths / 10_000 };
}

/** quantity x unit_price in cents, rounded half-up: exact integer arithmetic, no binary floats. */
export function lineTotalCents(line: LineInput): bigint {
  const product = BigInt(line.quantityThousandths) * BigInt(line.unitPriceTenThousandths); // units of 1e-7
  return (product + 50_000n) / 100_000n;
}

export function centsToNumber(cents: bigint): number {
  return Number(cents) / 100;
}

export function deliveryTotals(lines: readonly LineInput[]): { lineTotals: number[]; total: number } {
  const totals = lines.map(lineTotalCents);
  return { lineTotals: totals.map(centsToNumber), total: centsToNumber(totals.reduce((sum, cents) => sum + cents, 0n)) };
}

export function formatNumber(prefix: string, sequence: number): string {
  return `${prefix}${String(sequence).padStart(6, '0')}`;
}

// ---- search ----

export type SortField = 'id' | 'invoice_number' | 'client_id' | 'amount' | 'status' | 'due_date' | 'created_at' | 'updated_at';

/** The criteria the generator draws; each is checked here against a stored invoice. */
export type Criterion =
  | { field: 'status'; operator: '='; value: InvoiceStatus }
  | { field: 'status'; operator: 'in'; value: InvoiceStatus[] }
  | { field: 'amount'; operator: '>=' | '<'; value: number }
  | { field: 'amount'; operator: 'between'; value: [number, number] }
  | { field: 'client_id'; operator: '=' | '!='; value: number }
  | { field: 'currency'; operator: '='; value: string }
  | { field: 'description'; operator: 'like'; value: string }
  | { field: 'due_date'; operator: 'between'; value: [string, string] };

export function matches(invoice: Invoice, criterion: Criterion): boolean {
  switch (criterion.field) {
    case 'status':
      return criterion.operator === '=' ? invoice.status === criterion.value : criterion.value.includes(invoice.status);
    case 'amount':
      if (criterion.operator === 'between') return invoice.amount >= criterion.value[0] && invoice.amount <= criterion.value[1];
      return criterion.operator === '>=' ? invoice.amount >= criterion.value : invoice.amount < criterion.value;
    case 'client_id':
      return criterion.operator === '=' ? invoice.client_id === criterion.value : invoice.client_id !== criterion.value;
    case 'currency':
      return invoice.currency === criterion.value;
    case 'description':
      return invoice.description.toLowerCase().includes(criterion.value.toLowerCase());
    case 'due_date':
      return invoice.due_date >= criterion.value[0] && invoice.due_date <= criterion.value[1];
  }
}

export type SortValue = string | number;

export function sortValue(invoice: Invoice, field: SortField): SortValue {
  return invoice[field];
}

/** Compares two rows by the sort field, ties broken by id, in the given direction. Text by code point. */
export function compareRows(a: { value: SortValue; id: number }, b: { value: SortValue; id: number }, direction: 'asc' | 'desc'): number {
  const byValue = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  const order = byValue !== 0 ? byValue : a.id - b.id;
  return direction === 'asc' ? order : -order;
}

export interface SearchShape {
  criteria: readonly Criterion[];
  orderBy: SortField;
  direction: 'asc' | 'desc';
}

/** Every stored invoice the search matches, in the order the service must answer them. */
export function searchResult(invoices: Iterable<Invoice>, shape: SearchShape): Invoice[] {
  return [...invoices]
    .filter((invoice) => shape.criteria.every((criterion) => matches(invoice, criterion)))
    .sort((a, b) => compareRows({ value: sortValue(a, shape.orderBy), id: a.id }, { value: sortValue(b, shape.orderBy), id: b.id }, shape.direction));
}

// ---- export ----

/** The export's columns: the spec's Invoice properties in the order its schema lists them, as the export's description says. */
export const exportColumns = Object.keys(
  (loadSpec().components['schemas'] as Record<string, { properties: Record<string, unknown> }>)['Invoice']?.properties ?? {},
);

/** A text cell as the export writes it: one that a spreadsheet would run as a formula gets a `'` first. */
export function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function exportRow(invoice: Invoice): string[] {
  return [
    String(invoice.id),
    safeText(invoice.invoice_number),
    String(invoice.client_id),
    safeText(invoice.client_name),
    invoice.amount.toFixed(2),
    invoice.currency,
    invoice.status,
    invoice.due_date,
    invoice.created_at,
    invoice.updated_at,
    safeText(invoice.description),
  ];
}
