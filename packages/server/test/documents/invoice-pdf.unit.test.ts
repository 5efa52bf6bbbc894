// The parsed font is shared by every document of the process: one document's glyphs must not leak into
// the next one's subset, and one version of an invoice must render to the same bytes whatever was
// rendered before it (its ETag promises that).
import type { Invoice } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { invoiceFont, renderInvoicePdf, type InvoicePdfContent } from '../../src/documents/invoice-pdf.js';

function content(overrides: Partial<Invoice>): InvoicePdfContent {
  const invoice: Invoice = {
    id: 7,
    invoice_number: 'INV-0007',
    client_id: 3,
    client_name: 'Acme Ltd',
    amount: 1250.5,
    currency: 'EUR',
    status: 'draft',
    due_date: '2026-03-31',
    description: 'Consulting, March',
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-02T10:30:00.000Z',
    ...overrides,
  };
  return { accountName: 'Müller & Söhne AG', invoice, amount: '1250.50' };
}

describe('the invoice PDF with a font parsed once', () => {
  it('parses the font once for the process', () => {
    expect(invoiceFont()).toBe(invoiceFont());
  });

  it('renders one version to the same bytes before and after documents with other glyphs', async () => {
    const plain = content({});
    const first = await renderInvoicePdf(plain);
    const other = await renderInvoicePdf(content({ description: 'Ωmega Жук ÿ €', client_name: 'Zoë Ωmega Ltd' }));
    const again = await renderInvoicePdf(plain);
    expect(other.equals(first)).toBe(false);
    expect(again.equals(first)).toBe(true);
    // The second document's glyphs made its embedded subset larger; the first's did not grow from them.
    expect(other.byteLength).toBeGreaterThan(first.byteLength);
  });

  it('renders documents concurrently to the bytes each renders alone', async () => {
    const contents = [content({ description: 'A' }), content({ description: 'Ωmega' }), content({ description: 'Жук' })];
    const alone: Buffer[] = [];
    for (const each of contents) alone.push(await renderInvoicePdf(each));
    const together = await Promise.all(contents.map((each) => renderInvoicePdf(each)));
    for (const [index, bytes] of together.entries()) expect(bytes.equals(alone[index]!)).toBe(true);
  });
});
