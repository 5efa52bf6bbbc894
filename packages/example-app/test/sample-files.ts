// Files the tests upload through the page's file input.
import type { FileToUpload } from './app-page.js';

/** A valid 1x1 PNG: the smallest file the API takes as image/png (its bytes are checked). */
export const pixelPng: FileToUpload = {
  name: 'pixel.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
};

/** Text under a PDF's name and type: the browser declares it application/pdf, the API reads its bytes and refuses it (415). */
export const textNamedPdf: FileToUpload = {
  name: 'notes.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.from('These are plain notes, not a PDF.\n'),
};

/** The column line exportInvoices writes first (its description in the spec). */
export const csvHeader = 'id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description';

/** The records of a CSV text (RFC 4180: a line break inside quotes is part of its field), the header included. */
export function csvRecords(text: string): string[] {
  const records: string[] = [];
  let start = 0;
  let inQuotes = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') inQuotes = !inQuotes;
    else if (char === '\n' && !inQuotes) {
      records.push(text.slice(start, text[index - 1] === '\r' ? index - 1 : index));
      start = index + 1;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records;
}
