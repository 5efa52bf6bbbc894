// A strict RFC 4180 reader for the export's answers (no CSV library in this package): records end
// with CRLF, the last one too; a field is bare (no comma, quote, CR or LF) or in double quotes with
// inner quotes doubled. Anything else throws, so a malformed export fails the run.

/** The records of a CSV text, each a list of its fields' values. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  while (index < text.length) {
    let field = '';
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        if (index >= text.length) throw new Error('CSV: a quoted field is not closed');
        if (text[index] === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        field += text[index];
        index += 1;
      }
    } else {
      while (index < text.length && !/[",\r\n]/.test(text[index]!)) {
        field += text[index];
        index += 1;
      }
      if (text[index] === '"') throw new Error(`CSV: a quote inside a bare field at ${index}`);
    }
    record.push(field);
    if (text[index] === ',') {
      index += 1;
      continue;
    }
    if (text.startsWith('\r\n', index)) {
      records.push(record);
      record = [];
      index += 2;
      continue;
    }
    throw new Error(`CSV: expected a comma or CRLF at ${index}, found ${JSON.stringify(text.slice(index, index + 10))}`);
  }
  if (record.length > 0) throw new Error('CSV: the last record does not end with CRLF');
  return records;
}
