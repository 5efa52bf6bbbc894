// Rows (as type-parsers.ts delivers them) to the API's shapes, in one place. Numeric columns arrive as
// exact decimal text and leave as JSON numbers: every value the API allows (at most 15 significant
// digits) survives that conversion exactly.
import type { CompanyClient, Delivery, DeliveryItem, Invoice, User } from '@invoice-api/contract';
import { toApiNumber } from '../domain/money.js';
import type { CompanyClientRow, DeliveryItemRow, DeliveryRow, InvoiceRow, UserRow } from './schema.js';

/** The invoice columns the API shows, for `select` lists (account_id stays inside). */
export const invoiceColumns = [
  'id',
  'invoice_number',
  'client_id',
  'client_name',
  'amount',
  'currency',
  'status',
  'due_date',
  'created_at',
  'updated_at',
  'description',
] as const;

export function toInvoice(row: Pick<InvoiceRow, (typeof invoiceColumns)[number]>): Invoice {
  return {
    id: row.id,
    invoice_number: row.invoice_number,
    client_id: row.client_id,
    client_name: row.client_name,
    amount: toApiNumber(row.amount),
    currency: row.currency,
    status: row.status,
    due_date: row.due_date,
    created_at: row.created_at,
    updated_at: row.updated_at,
    description: row.description,
  };
}

export function toUser(row: UserRow): User {
  return { id: row.id, name: row.name, email: row.email, role: row.role, created_at: row.created_at };
}

export function toCompanyClient(row: CompanyClientRow): CompanyClient {
  return { id: row.id, name: row.name, email: row.email, country: row.country, created_at: row.created_at };
}

export function toDeliveryItem(row: Pick<DeliveryItemRow, 'id' | 'item_id' | 'quantity' | 'unit_price' | 'total'>): DeliveryItem {
  return {
    id: row.id,
    item_id: row.item_id,
    quantity: toApiNumber(row.quantity),
    unit_price: toApiNumber(row.unit_price),
    total: toApiNumber(row.total),
  };
}

export function toDelivery(
  row: DeliveryRow & { currency: string },
  items: ReadonlyArray<Pick<DeliveryItemRow, 'id' | 'item_id' | 'quantity' | 'unit_price' | 'total'>>,
): Delivery {
  return {
    id: row.id,
    delivery_nr: row.delivery_nr,
    contact_id: row.contact_id,
    delivery_date: row.delivery_date,
    status: row.status,
    total_amount: toApiNumber(row.total_amount),
    currency: row.currency,
    items: items.map(toDeliveryItem),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
