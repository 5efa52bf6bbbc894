// Answer bodies the scripted fetch plays back, shaped like the service's: one invoice, one issued
// delivery and one attachment. A test that needs a variation spreads one of these and overrides a field.

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

export const sampleAttachment = {
  id: 9,
  invoice_id: 42,
  file_name: 'order.pdf',
  media_type: 'application/pdf',
  size: 15,
  sha256: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
  note: 'Signed order',
  created_at: '2026-11-21T10:00:00.000Z',
};
