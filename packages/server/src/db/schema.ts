// Row types of every table, as Kysely sees them after type-parsers.ts: what a SELECT returns, what an
// INSERT needs. The API types live in @invoice-api/contract; these are the storage shapes behind them.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DeliveryStatus, InvoiceStatus, User } from '@invoice-api/contract';

/** A timestamptz(3): read as an ISO 8601 UTC string, written as one (or left to its default). */
type Timestamp = ColumnType<string, string | undefined, string>;
/** A numeric column: exact decimal text both ways (numbers are accepted on write). */
type DecimalText = ColumnType<string, string | number, string | number>;

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  /** ISO 4217 code that delivery totals are in. */
  default_currency: string;
  /** The number the next generated invoice_number gets (`INV-` + 6 digits). */
  next_invoice_number: Generated<number>;
  /** The number the next delivery_nr gets (`LS-` + 6 digits). */
  next_delivery_number: Generated<number>;
  /**
   * Grows with every statement that writes the account's invoices (triggers of migration 0006), in the
   * writing transaction: equal values in two snapshots mean the account's invoices are the same.
   */
  invoices_version: Generated<number>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  email: string;
  role: User['role'];
  created_at: Timestamp;
}

export interface CompanyClientsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  email: string;
  country: string;
  created_at: Timestamp;
}

export interface InvoicesTable {
  id: Generated<number>;
  account_id: number;
  invoice_number: string;
  client_id: number;
  /** Copied from the client when the invoice is written, so that sorting by it can use an index. */
  client_name: string;
  amount: DecimalText;
  currency: string;
  status: InvoiceStatus;
  due_date: string;
  description: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Starts at 1 and grows by one with every change of a stored value: the ETag's version. */
  version: Generated<number>;
}

/**
 * How many invoices of an account have a status and a currency, kept by the triggers of migration 0007
 * in every transaction that writes invoices: the sum of a search's groups is its exact total.
 */
export interface InvoiceCountsTable {
  account_id: number;
  status: InvoiceStatus;
  currency: string;
  invoices: number;
}

export interface DeliveriesTable {
  id: Generated<number>;
  account_id: number;
  delivery_nr: string;
  contact_id: number;
  delivery_date: string | null;
  status: DeliveryStatus;
  total_amount: DecimalText;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Starts at 1 and grows by one with every change of a stored value: the ETag's version. */
  version: Generated<number>;
}

export interface IdempotencyKeysTable {
  account_id: number;
  api_key: string;
  idempotency_key: string;
  fingerprint: string;
  status: number;
  headers: ColumnType<Record<string, string>, string, string>;
  body: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface DeliveryItemsTable {
  id: Generated<number>;
  account_id: number;
  delivery_id: number;
  /** Order of the line within its delivery, from 0, so items come back as they were sent. */
  position: number;
  item_id: number;
  quantity: DecimalText;
  unit_price: DecimalText;
  total: DecimalText;
}

/** A file kept with an invoice (migration 0008): its facts and its bytes. */
export interface InvoiceAttachmentsTable {
  id: Generated<number>;
  account_id: number;
  invoice_id: number;
  /** As uploaded (the part's filename); made safe only when a download's header carries it. */
  file_name: string;
  media_type: 'application/pdf' | 'image/png' | 'image/jpeg';
  size: number;
  /** The SHA-256 of `content`, lower-case hex, computed on upload. */
  sha256: string;
  note: string;
  content: Uint8Array;
  created_at: Timestamp;
}

export interface DatabaseSchema {
  accounts: AccountsTable;
  users: UsersTable;
  company_clients: CompanyClientsTable;
  invoices: InvoicesTable;
  invoice_counts: InvoiceCountsTable;
  deliveries: DeliveriesTable;
  delivery_items: DeliveryItemsTable;
  idempotency_keys: IdempotencyKeysTable;
  invoice_attachments: InvoiceAttachmentsTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type UserRow = Selectable<UsersTable>;
export type CompanyClientRow = Selectable<CompanyClientsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type NewInvoiceRow = Insertable<InvoicesTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type DeliveryItemRow = Selectable<DeliveryItemsTable>;
