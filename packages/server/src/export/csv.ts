// CSV as RFC 4180 writes it, with OWASP's defence against CSV injection: fields separated by commas,
// lines ended by CRLF, a field that holds a comma, a double quote, a CR or a LF put in double quotes
// with its quotes doubled. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a
// formula (and a leading tab or CR can hide one), so a text cell a user wrote is given a leading `'`
// first: the spreadsheet then shows it as text. Cells the service writes itself (ids, amounts, dates,
// codes) are never neutralised: a spreadsheet must still read them as numbers and dates.

/** Characters that make a field need quotes (RFC 4180, section 2, rules 6 and 7). */
export const quotedCharacters = ['"', ',', '\r', '\n'] as const;
/** First characters that make a text cell a formula, or hide one behind whitespace a spreadsheet trims (OWASP). */
export const formulaStartCharacters = ['=', '+', '-', '@', '\t', '\r'] as const;

const needsQuotes = (value: string): boolean => quotedCharacters.some((character) => value.includes(character));
const startsLikeFormula = (value: string): boolean => (formulaStartCharacters as readonly string[]).includes(value.charAt(0));

/** A field as RFC 4180 writes it: as it is, or in double quotes with its quotes doubled. */
export function csvField(value: string): string {
  return needsQuotes(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A text cell a user wrote: neutralised when a spreadsheet would run it as a formula, then quoted where needed. */
export function csvTextField(value: string): string {
  return csvField(startsLikeFormula(value) ? `'${value}` : value);
}

/** One record: the fields (already written by csvField or csvTextField) and CRLF. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}
