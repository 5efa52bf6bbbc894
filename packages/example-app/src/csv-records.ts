// Counts the records of a CSV answer as its bytes arrive (RFC 4180, as exportInvoices writes it), so
// that the page can say how many invoices an export held without keeping a decoded copy of it. A line
// break inside a quoted field (a description over two lines) is part of that field, not a new record.
// Works on the UTF-8 bytes: `"` and `\n` are single bytes that no multi-byte character contains.

const quote = 0x22;
const lineFeed = 0x0a;

export interface CsvRecordCounter {
  /** Reads the next chunk of the answer. */
  push(chunk: Uint8Array): void;
  /** Records seen so far, the header line included; a last line without a line break counts. */
  records(): number;
}

export function csvRecordCounter(): CsvRecordCounter {
  let inQuotes = false;
  let complete = 0;
  // Whether bytes came after the last record's line break (a last record without one).
  let open = false;
  return {
    push(chunk) {
      for (const byte of chunk) {
        // An escaped quote (`""`) toggles twice: still inside the field.
        if (byte === quote) inQuotes = !inQuotes;
        if (byte === lineFeed && !inQuotes) {
          complete += 1;
          open = false;
        } else {
          open = true;
        }
      }
    },
    records() {
      return complete + (open ? 1 : 0);
    },
  };
}
