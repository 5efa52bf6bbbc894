// An update reads its row under lock (FOR UPDATE) before checking If-Match against it, and that read
// waits for any other write to the row: the wait gets a span of its own, so a slow update shows
// whether it was queued behind another writer.
import { inSpan } from '../telemetry/spans.js';
import type { IfMatch } from './entity-tag.js';

export function lockForCondition<T>(resource: 'invoice' | 'delivery', condition: IfMatch | undefined, lock: () => Promise<T>): Promise<T> {
  return inSpan('if-match.row_lock', { 'if_match.resource': resource, 'if_match.sent': condition !== undefined }, lock);
}
