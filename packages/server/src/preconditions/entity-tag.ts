// ETag and If-Match (RFC 9110, 8.8.3 and 13.1.1) for invoices and deliveries. The tag is strong and
// made of the resource's id and its version counter (migration 0005), which grows with every change
// of a stored value: two changes within one millisecond still give two tags.
import { ApiError } from '../errors.js';

/** A parsed If-Match: `*` (any current representation), or the strong tags it lists (weak ones never match). */
export type IfMatch = { any: true } | { any: false; strongTags: readonly string[] };

export const ifMatchHeader = 'If-Match';

export function entityTag(id: number, version: number): string {
  return `"${id}-${version}"`;
}

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text.
const entityTagPattern = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** The header's condition; undefined without the header; 400 when it is neither `*` nor a list of entity tags. */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return { any: true };
  // A list: elements separated by commas with optional whitespace; empty elements are allowed (RFC 9110, 5.6.1).
  const elements = value
    .split(',')
    .map((element) => element.trim())
    .filter((element) => element !== '');
  if (elements.length === 0 || !elements.every((element) => entityTagPattern.test(element))) {
    const issue = 'must be * or a comma-separated list of entity tags ("…" or W/"…")';
    throw ApiError.invalid(ifMatchHeader, issue, `Invalid header '${ifMatchHeader}': ${issue}.`);
  }
  return { any: false, strongTags: elements.filter((element) => !element.startsWith('W/')) };
}

/**
 * Throws 412 unless the condition holds for the resource's current tag (strong comparison). Called
 * under the row lock of the update's transaction, so no other write can slip between check and write.
 */
export function assertIfMatch(condition: IfMatch | undefined, currentTag: string, resource: string): void {
  if (condition === undefined || condition.any || condition.strongTags.includes(currentTag)) return;
  throw new ApiError(412, 'precondition_failed', `${resource} has changed: its current ETag is not one If-Match lists.`, {
    field: ifMatchHeader,
    issue: 'does not match the current ETag',
  });
}
