// How numbers and dates appear on the page: fixed locale, so that what a user sees does not depend
// on the browser's settings (and tests can read it back).

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatMoney(amount: number, currency?: string): string {
  return currency ? `${money.format(amount)} ${currency}` : money.format(amount);
}

/** `2026-03-14T09:12:44.310Z` -> `2026-03-14 09:12 UTC`. */
export function formatTimestamp(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return match ? `${match[1]} ${match[2]} UTC` : value;
}

/** A file's size as a person reads it; exact bytes below 1 KiB (what a small upload is checked by). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
