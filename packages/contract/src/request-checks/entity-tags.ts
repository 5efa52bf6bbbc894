// If-Match and If-None-Match as lists of entity tags (RFC 9110, 8.8.3, 13.1.1 and 13.1.2): read and
// refused alike by the service (preconditions/) and the MSW handlers, which also answer a documented
// 304 when If-None-Match names the ETag of the answer they would give.
import type { RequestProblem } from './validator-problems.js';

export const ifMatchHeader = 'If-Match';
export const ifNoneMatchHeader = 'If-None-Match';

/** `*` (any current representation), or the entity tags a header lists, as written. */
export type EntityTagList = { any: true } | { any: false; tags: readonly string[] };

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text.
const entityTagPattern = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * `*`, or the list's entity tags as written; undefined when the value is neither. A list separates
 * elements by commas with optional whitespace, and may hold empty ones (RFC 9110, 5.6.1).
 */
export function parseEntityTagList(value: string): EntityTagList | undefined {
  const trimmed = value.trim();
  if (trimmed === '*') return { any: true };
  const tags = trimmed
    .split(',')
    .map((element) => element.trim())
    .filter((element) => element !== '');
  if (tags.length === 0 || !tags.every((tag) => entityTagPattern.test(tag))) return undefined;
  return { any: false, tags };
}

/** The 400's words for a header that is not `*` or a list of entity tags. */
export function entityTagListProblem(header: string): Required<RequestProblem> {
  const issue = 'must be * or a comma-separated list of entity tags ("…" or W/"…")';
  return { message: `Invalid header '${header}': ${issue}.`, details: { field: header, issue } };
}

/** An entity tag without its weakness mark: what the weak comparison compares (RFC 9110, 8.8.3.2). */
export function opaqueTag(tag: string): string {
  return tag.replace(/^W\//, '');
}

/** Whether If-None-Match's list names `currentTag` by the weak comparison, or is `*`: a read may answer 304. */
export function noneMatchNames(list: EntityTagList, currentTag: string): boolean {
  return list.any || list.tags.some((tag) => opaqueTag(tag) === opaqueTag(currentTag));
}
