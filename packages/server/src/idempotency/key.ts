// The Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header): which operations take it, and
// what a well-formed key is. Both are the spec's: an operation takes a key when it declares the header,
// and the key's pattern is the header schema's, read from the generated operation table. The check runs
// here as well as in the validator so that the message says what a key is (the validator's would quote
// the regular expression) and so that the service stays guarded when request validation is off.
import { operationTable, type OperationId } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import type { OperationEntry } from '../http/locals.js';

export const idempotencyKeyHeader = 'Idempotency-Key';

/** The pattern each keyed operation's spec declares for the header, compiled once. */
const keyPatterns: ReadonlyMap<OperationId, RegExp> = new Map(
  Object.values(operationTable).flatMap((operation): Array<[OperationId, RegExp]> => {
    const header = operation.headerParams.find((parameter) => parameter.name === idempotencyKeyHeader);
    if (header === undefined) return [];
    // A keyed operation without a pattern would accept any header value as a key: refuse to start.
    if (!('pattern' in header)) throw new Error(`${operation.operationId}: the ${idempotencyKeyHeader} header has no pattern in the spec`);
    return [[operation.operationId, new RegExp(header.pattern, 'u')]];
  }),
);

/** The operations whose spec declares the Idempotency-Key header. */
export const idempotentOperations: readonly OperationId[] = [...keyPatterns.keys()];

export function isIdempotentOperation(operation: OperationEntry): boolean {
  return keyPatterns.has(operation.operationId);
}

const formatIssue = 'must be 1 to 255 characters of letters, digits and - _ . : ~ + / =';

/**
 * The key the header carries (quotes removed: `"k"` and `k` are one key); undefined without the header.
 * Only for operations that take a key (isIdempotentOperation).
 */
export function parseIdempotencyKey(operation: OperationEntry, header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const pattern = keyPatterns.get(operation.operationId);
  // Two Idempotency-Key headers arrive joined or as a list: either way not one key.
  if (pattern === undefined || typeof header !== 'string' || !pattern.test(header)) {
    throw ApiError.invalid(idempotencyKeyHeader, formatIssue, `Invalid header '${idempotencyKeyHeader}': ${formatIssue}.`);
  }
  return header.startsWith('"') ? header.slice(1, -1) : header;
}
