// "Export CSV": every invoice the list's search matches, in its order (exportInvoices takes a search's
// criteria and order, with no page), saved as invoices.csv, and how many invoices the file holds. The
// answer is read as a stream (`{ stream: true }`): an export of a whole account can be large, so its
// rows are counted as they arrive (the status line follows) rather than decoded into one string, and
// the bytes go into the Blob that is saved.
import type { AppContext } from './app-context.js';
import type { InvoiceExport } from './data.js';
import { csvRecordCounter } from './csv-records.js';
import { h } from './dom.js';
import { saveFile } from './save-file.js';

export const exportFileName = 'invoices.csv';

/** The button; `currentExport` gives the criteria and order of the search the list shows. */
export function exportButton(context: AppContext, currentExport: () => InvoiceExport): HTMLButtonElement {
  const rows = (count: number) => `${count} ${count === 1 ? 'invoice' : 'invoices'}`;

  async function exportCsv(): Promise<void> {
    const saved = await context.run('Exporting invoices', async (data) => {
      const stream = await data.exportInvoices(currentExport());
      const counter = csvRecordCounter();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      const reader = stream.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        // A copy the Blob can hold (a chunk's buffer may be shared or resizable, which a BlobPart may not be).
        chunks.push(new Uint8Array(read.value));
        counter.push(read.value);
        // The first line names the columns: every other record is an invoice.
        context.announce(`Exporting… ${rows(Math.max(counter.records() - 1, 0))}`);
      }
      return { file: new Blob(chunks, { type: 'text/csv' }), invoices: Math.max(counter.records() - 1, 0) };
    });
    if (!saved) return;
    saveFile(saved.file, exportFileName);
    context.announce(`Exported ${rows(saved.invoices)} to ${exportFileName}`);
  }

  return h('button', { attrs: { type: 'button' }, on: { click: () => void exportCsv() } }, 'Export CSV');
}
