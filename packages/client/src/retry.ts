// The retry policy: exponential backoff with full jitter, waiting at least what `Retry-After` asks.
// The transport applies it to safe operations and to writes that carry an Idempotency-Key (the
// service runs those at most once per key); a write without a key (the updates) is never repeated:
// a lost answer must not become a second write behind the caller's back.
import { operationTable, type OperationId } from '@invoice-api/contract';

export interface RetryOptions {
  /** Total HTTP requests per call, the first included. Default 3. */
  maxAttempts?: number;
  /** Backoff base: the n-th retry waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). Default 200. */
  baseDelayMs?: number;
  /** Cap of the backoff window. Default 5000. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the 429/503 is returned as is. Default 30000. */
  maxRetryAfterMs?: number;
  /** Injectable for tests. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests: a number in [0, 1). Default: Math.random. */
  random?: () => number;
  /** Injectable for tests, to read HTTP-date `Retry-After` values. Default: Date.now. */
  now?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export const retryableStatuses: ReadonlySet<number> = new Set([429, 503]);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  const given = options === false ? { maxAttempts: 1 } : (options ?? {});
  return {
    maxAttempts: Math.max(1, Math.floor(given.maxAttempts ?? 3)),
    baseDelayMs: given.baseDelayMs ?? 200,
    maxDelayMs: given.maxDelayMs ?? 5000,
    maxRetryAfterMs: given.maxRetryAfterMs ?? 30_000,
    sleep: given.sleep ?? defaultSleep,
    random: given.random ?? Math.random,
    now: given.now ?? Date.now,
  };
}

/**
 * Safe means it changes nothing: every GET, and an operation whose scopes are all read scopes
 * (the search POST needs only `invoices:read`). Read from an operation table entry, not listed here.
 */
export function isSafe(operation: { readonly method: string; readonly scopes: readonly string[] }): boolean {
  const { method, scopes } = operation;
  if (method === 'GET' || method === 'HEAD') return true;
  return scopes.length > 0 && scopes.every((scope) => scope.endsWith(':read'));
}

/** Whether a product operation is safe (`isSafe` of its entry in the spec's operation table). */
export function isSafeOperation(operationId: OperationId): boolean {
  return isSafe(operationTable[operationId]);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` (1-based), or undefined to stop and return the answer.
 * Full jitter spreads clients that failed together; `Retry-After` is a floor, never shortened.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfter: string | null): number | undefined {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.floor(policy.random() * window);
  const asked = parseRetryAfter(retryAfter, policy.now());
  if (asked === undefined) return jittered;
  if (asked > policy.maxRetryAfterMs) return undefined;
  return Math.max(asked, jittered);
}
