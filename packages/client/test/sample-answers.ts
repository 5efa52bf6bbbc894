// Answer bodies the scripted fetch plays back, shaped like the service's: one invoice and one issued
// delivery. A test that needs a variation spreads one of these and overrides a field.

export const sampleInvoice = {
  id: 5,
  invoice_number: 'INV-000005',
  client_id: 1,
  client_name: 'Acme',
  amount: 10,
  currency: 'CHF',
  status: 'draft',
  due_date: '2026-12-31',
  description: null as string | null,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};

export const sampleDelivery = {
  id: 7,
  delivery_nr: 'LS-000007',
  contact_id: 2,
  delivery_date: '2026-11-21',
  status: 'issued',
  total_amount: 10,
  items: [{ id: 1, item_id: 3, quantity: 1, unit_price: 10, total: 10 }],
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};
