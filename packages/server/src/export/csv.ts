// CSV as RFC 4180 writes it, with OWASP's defence against CSV injection: fields separated by commas,
// lines ended by CRLF, a field that holds a comma, a double quote, a CR or a LF put in double quotes
// with its quotes doubled. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a
// formula (and a leading tab or CR can hide one), so a text cell a user wrote is given a leading `'`
// first: the spreadsheet then shows it as text. Cells the service writes itself (ids, amounts, dates,
// codes) are never neutralised: a spreadsheet must still read them as numbers and dates.

/** What makes a field need quotes (RFC 4180, section 2, rules 6 and 7). */
const needsQuotes = /[",\r\n]/;
/** What makes a text cell a formula, or hides one behind whitespace a spreadsheet trims (OWASP). */
const formulaStart = /^[=+\-@\t\r]/;

/** A field as RFC 4180 writes it: as it is, or in double quotes with its quotes doubled. */
export function csvField(value: string): string {
  return needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A text cell a user wrote: neutralised when a spreadsheet would run it as a formula, then quoted where needed. */
export function csvTextField(value: string): string {
  return csvField(formulaStart.test(value) ? `'${value}` : value);
}

/** One record: the fields (already written by csvField or csvTextField) and CRLF. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}
