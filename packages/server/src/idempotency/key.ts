// The Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header): which operations take it, and
// what a well-formed key is. Both are the spec's: an operation takes a key when it declares the header,
// and the key's pattern is the header schema's, read from the operation's generated entry (the one the
// resolver attached, whichever contract is served). The check runs here as well as in the validator so
// that the message says what a key is (the validator's would quote the regular expression) and so that
// the service stays guarded when request validation is off.
import { operationTable, type OperationId } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import type { OperationEntry } from '../http/locals.js';

export const idempotencyKeyHeader = 'Idempotency-Key';

/**
 * Each entry's compiled key pattern (null: the operation takes no key), made at its first request.
 * Keyed by the entry object, which is the same for every request of the operation: one lookup a request.
 */
const keyPatterns = new WeakMap<OperationEntry, RegExp | null>();

function keyPatternOf(operation: OperationEntry): RegExp | null {
  let pattern = keyPatterns.get(operation);
  if (pattern === undefined) {
    const header = operation.headerParams.find((parameter) => parameter.name === idempotencyKeyHeader);
    pattern = header?.pattern === undefined ? null : new RegExp(header.pattern, 'u');
    keyPatterns.set(operation, pattern);
  }
  return pattern;
}

/**
 * Refuses to start with a keyed operation whose spec gives the header no pattern: it would accept any
 * header value as a key. createApp calls it with the served contract's operations.
 */
export function checkKeyPatterns(operations: Iterable<OperationEntry>): void {
  for (const operation of operations) {
    const header = operation.headerParams.find((parameter) => parameter.name === idempotencyKeyHeader);
    if (header !== undefined && header.pattern === undefined) {
      throw new Error(`${operation.operationId}: the ${idempotencyKeyHeader} header has no pattern in the spec`);
    }
  }
}

/** The product's operations whose spec declares the Idempotency-Key header. */
export const idempotentOperations: readonly OperationId[] = Object.values(operationTable)
  .filter((operation) => keyPatternOf(operation) !== null)
  .map((operation) => operation.operationId);

export function isIdempotentOperation(operation: OperationEntry): boolean {
  return keyPatternOf(operation) !== null;
}

const formatIssue = 'must be 1 to 255 characters of letters, digits and - _ . : ~ + / =';

/**
 * The key the header carries (quotes removed: `"k"` and `k` are one key); undefined without the header.
 * Only for operations that take a key (isIdempotentOperation).
 */
export function parseIdempotencyKey(operation: OperationEntry, header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const pattern = keyPatternOf(operation);
  // Two Idempotency-Key headers arrive joined or as a list: either way not one key.
  if (pattern === null || typeof header !== 'string' || !pattern.test(header)) {
    throw ApiError.invalid(idempotencyKeyHeader, formatIssue, `Invalid header '${idempotencyKeyHeader}': ${formatIssue}.`);
  }
  return header.startsWith('"') ? header.slice(1, -1) : header;
}
