// What makes two requests "the same request" for an idempotency key: the operation, the path (which
// names the resource) and the JSON body with its keys sorted, hashed. Whitespace, key order and
// number spelling (`1.50` / `1.5`) do not matter; any value that does differ does.
import { createHash } from 'node:crypto';

export function requestFingerprint(operationId: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([operationId, path, canonical(body)]))
    .digest('hex');
}

/** The value with every object's keys in sorted order (arrays keep theirs: their order is meaning). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = canonical((value as Record<string, unknown>)[key]);
  return sorted;
}
