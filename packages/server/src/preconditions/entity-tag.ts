// ETag, If-Match and If-None-Match (RFC 9110, 8.8.3, 13.1.1 and 13.1.2) for invoices and deliveries. The tag is strong and
// made of the resource's id and its version counter (migration 0005), which grows with every change
// of a stored value: two changes within one millisecond still give two tags.
import { entityTagListProblem, ifMatchHeader, ifNoneMatchHeader, noneMatchNames, parseEntityTagList, type EntityTagList } from '@invoice-api/contract';
import { ApiError } from '../errors.js';

/** A parsed If-Match: `*` (any current representation), or the strong tags it lists (weak ones never match). */
export type IfMatch = { any: true } | { any: false; strongTags: readonly string[] };

export { ifMatchHeader, ifNoneMatchHeader };

export function entityTag(id: number, version: number): string {
  return `"${id}-${version}"`;
}

/** A parsed If-None-Match: `*` (any current representation), or the entity tags it lists, weak or not. */
export type IfNoneMatch = EntityTagList;

/** `*` or the list's entity tags; undefined without the header; 400 naming the header when it is neither (the contract's words). */
function parseTagList(header: string | undefined, name: string): EntityTagList | undefined {
  if (header === undefined) return undefined;
  const list = parseEntityTagList(header);
  if (list !== undefined) return list;
  const { message, details } = entityTagListProblem(name);
  throw ApiError.invalid(details.field, details.issue, message);
}

/** The header's condition; undefined without the header; 400 when it is neither `*` nor a list of entity tags. */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  const list = parseTagList(header, ifMatchHeader);
  if (list === undefined || list.any) return list;
  // If-Match compares strongly: a weak tag never matches (RFC 9110, 13.1.1).
  return { any: false, strongTags: list.tags.filter((tag) => !tag.startsWith('W/')) };
}

/** The header's condition; undefined without the header; 400 when it is neither `*` nor a list of entity tags. */
export function parseIfNoneMatch(header: string | undefined): IfNoneMatch | undefined {
  return parseTagList(header, ifNoneMatchHeader);
}

/** Whether a read may answer 304: the condition names the resource's current tag (weakly, as the MSW handlers compare), or is `*`. */
export function isNotModified(condition: IfNoneMatch | undefined, currentTag: string): boolean {
  return condition !== undefined && noneMatchNames(condition, currentTag);
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
