// Markdown tables: readable in a terminal, pasted unchanged into RESULTS.md, parsed by the smoke test.

export type Cell = string | number;

/** Numbers with a sensible number of digits: 1,234 req/s, 12.3 ms, 0.85x. */
export function formatNumber(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits);
}

export function ratio(numerator: number, denominator: number): string {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator === 0) return 'n/a';
  return `${(numerator / denominator).toFixed(2)}x`;
}

export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  const text = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)));
  const widths = headers.map((header, column) => Math.max(header.length, ...text.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...text.map(line)].join('\n');
}
