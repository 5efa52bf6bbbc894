// The Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header): which operations take it, and
// what a well-formed key is. The spec's Idempotency-Key parameter declares the same pattern (a test
// keeps the two equal); this check also guards the service when request validation is off.
import type { OperationId, operations } from '@invoice-api/contract';
import { ApiError } from '../errors.js';

/** Operations whose spec declares the request header `Header`. */
type OperationsTaking<Header extends string> = {
  [K in OperationId]: operations[K]['parameters'] extends { header?: infer Declared }
    ? [NonNullable<Declared>] extends [never]
      ? never
      : Header extends keyof NonNullable<Declared>
        ? K
        : never
    : never;
}[OperationId];

type IdempotentOperation = OperationsTaking<'Idempotency-Key'>;

/** The operations that honour Idempotency-Key; the compiler checks the list against the spec both ways. */
export const idempotentOperations = ['createInvoice', 'createDelivery', 'issueDelivery'] as const satisfies readonly IdempotentOperation[];
type Listed = (typeof idempotentOperations)[number];
// A spec operation that declares the header but is missing here fails to compile.
const everyDeclaredOperationListed: [Exclude<IdempotentOperation, Listed>] extends [never] ? true : never = true;
void everyDeclaredOperationListed;

export function isIdempotentOperation(operationId: string): operationId is IdempotentOperation {
  return (idempotentOperations as readonly string[]).includes(operationId);
}

/** Same as the spec's pattern: bare, or the draft's Structured Field string in double quotes. */
export const idempotencyKeyPattern = /^(?:[A-Za-z0-9_.:~+/=-]{1,255}|"[A-Za-z0-9_.:~+/=-]{1,255}")$/;

export const idempotencyKeyHeader = 'Idempotency-Key';

const formatIssue = 'must be 1 to 255 characters of letters, digits and - _ . : ~ + / =';

/** The key the header carries (quotes removed: `"k"` and `k` are one key); undefined without the header. */
export function parseIdempotencyKey(header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  // Two Idempotency-Key headers arrive joined or as a list: either way not one key.
  if (typeof header !== 'string' || !idempotencyKeyPattern.test(header)) {
    throw ApiError.invalid(idempotencyKeyHeader, formatIssue, `Invalid header '${idempotencyKeyHeader}': ${formatIssue}.`);
  }
  return header.startsWith('"') ? header.slice(1, -1) : header;
}
