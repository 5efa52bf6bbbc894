// Tokens already verified, so that a client sending the same bearer token on every request pays for
// one signature check, not one per request. Keyed on the whole token string (a token altered in any
// character is another key, verified afresh), only successes are stored, an entry is dropped at the
// token's `exp` (or sooner, see maxAgeMs), and the number of entries is bounded: the least recently
// used goes first.
import type { Caller } from '../context.js';

export interface VerifiedToken {
  caller: Caller;
  /** The token's `exp`, in epoch milliseconds. */
  expiresAtMs: number;
}

export interface TokenCacheOptions {
  maxEntries: number;
  /**
   * The longest a verified token is trusted without a new check, whatever its `exp`: a signing key
   * withdrawn from the JWKS stops being accepted within this time, as jose's own key cache allows.
   */
  maxAgeMs: number;
  now?: () => number;
}

export function cachingVerifier(verify: (token: string) => Promise<VerifiedToken>, options: TokenCacheOptions): (token: string) => Promise<Caller> {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  const entries = new Map<string, { caller: Caller; validUntilMs: number }>();
  return async (token) => {
    const cached = entries.get(token);
    if (cached !== undefined) {
      entries.delete(token);
      if (now() < cached.validUntilMs) {
        entries.set(token, cached);
        return cached.caller;
      }
    }
    // A rejection propagates and stores nothing.
    const verified = await verify(token);
    const validUntilMs = Math.min(verified.expiresAtMs, now() + options.maxAgeMs);
    if (now() < validUntilMs) {
      entries.set(token, { caller: verified.caller, validUntilMs });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
    }
    return verified.caller;
  };
}
