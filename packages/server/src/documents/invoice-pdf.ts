// An invoice as a one-page PDF (getInvoicePdf), laid out with pdfkit: the kept PDF library for Node
// that writes text with embedded, subset TrueType fonts and needs no browser or native code. Its
// standard 14 fonts are not embedded and only cover Latin-1, so the text is set in DejaVu Sans
// (dejavu-fonts-ttf: a free licence, Latin, Greek and Cyrillic), embedded as the subset the document
// uses. No network access, no file written.
//
// Every value is the invoice's JSON value as the API answers it (toInvoice), the amount as the exact
// decimal the database holds: the PDF and the JSON cannot disagree. The document's dates are the
// invoice's last change, so one version of an invoice always renders to the same bytes, as its ETag
// promises.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Invoice } from '@invoice-api/contract';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

declare global {
  namespace PDFKit.Mixins {
    interface PDFFont {
      /** pdfkit takes a font fontkit already parsed (anything with `layout`), which @types/pdfkit leaves out. */
      font(src: fontkit.Font, size?: number): this;
    }
  }
}

export interface InvoicePdfContent {
  /** The name of the account that issued the invoice. */
  accountName: string;
  invoice: Invoice;
  /** The amount as an exact decimal with its two places (`1250.00`), as the database holds it. */
  amount: string;
}

let font: fontkit.Font | undefined;

/**
 * DejaVu Sans, read and parsed once per process with fontkit, the parser pdfkit itself uses: given the
 * file's bytes, pdfkit would parse its 700 KiB anew for every document, most of a document's cost. A
 * parsed font is read-only to pdfkit (each document takes its own subset of it), so documents share it.
 */
export function invoiceFont(): fontkit.Font {
  if (font === undefined) {
    const path = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf');
    const parsed = fontkit.create(readFileSync(path));
    if (!('layout' in parsed)) throw new Error(`${path} is a font collection, not one font`);
    font = parsed;
  }
  return font;
}

/** The labelled values of the document, in reading order. */
function detailLines(content: InvoicePdfContent): Array<[string, string]> {
  const { invoice } = content;
  return [
    ['Invoice number', invoice.invoice_number],
    ['Status', invoice.status],
    ['Due date', invoice.due_date],
    ['Created', invoice.created_at],
    ['Last changed', invoice.updated_at],
  ];
}

/** Renders the PDF whole: a one-page invoice is a few kilobytes, and its length is then known. */
export function renderInvoicePdf(content: InvoicePdfContent): Promise<Buffer> {
  const { invoice } = content;
  const lastChange = new Date(invoice.updated_at);
  const document = new PDFDocument({
    size: 'A4',
    margin: 56,
    // No default font: pdfkit's is Helvetica, one of the standard 14, which a PDF names without embedding.
    font: '',
    info: { Title: `Invoice ${invoice.invoice_number}`, Author: content.accountName, CreationDate: lastChange, ModDate: lastChange },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
  document.font(invoiceFont());
  const label = '#555555';
  const text = '#000000';

  document.fontSize(20).fillColor(text).text(content.accountName);
  document.moveDown(0.3);
  document.fontSize(14).text(`Invoice ${invoice.invoice_number}`);
  document.moveDown(1.5);
  document.fontSize(9).fillColor(label).text('Bill to');
  document.fontSize(12).fillColor(text).text(invoice.client_name);
  document.moveDown();
  for (const [name, value] of detailLines(content)) {
    document.fontSize(9).fillColor(label).text(name);
    document.fontSize(11).fillColor(text).text(value);
    document.moveDown(0.4);
  }
  document.moveDown(0.6);
  document.fontSize(9).fillColor(label).text('Description');
  document
    .fontSize(11)
    .fillColor(text)
    .text(invoice.description === '' ? '(none)' : invoice.description);
  document.moveDown(1.5);
  document.fontSize(9).fillColor(label).text('Amount due');
  document.fontSize(16).fillColor(text).text(`${content.amount} ${invoice.currency}`);
  document.end();
  return done;
}
