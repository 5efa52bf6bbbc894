// Verified tokens are remembered until they expire, in a bounded cache; nothing else is: a token
// altered in one character, a refused token, an expired entry and an evicted entry are all verified
// afresh.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER } from '../../src/config.js';
import type { Caller } from '../../src/context.js';
import { mintDevToken } from '../../src/dev/token.js';
import { createTokenVerifier } from '../../src/http/auth.js';
import { cachingVerifier, type VerifiedToken } from '../../src/http/token-cache.js';

const caller = (apiKey: string): Caller => ({ accountId: 1, apiKey, scopes: new Set(['invoices:read']) });

/** A verifier that counts its calls and answers from `answers` (a string: reject with it). */
function countingVerifier(answers: (token: string) => VerifiedToken | string) {
  const calls: string[] = [];
  const verify = async (token: string): Promise<VerifiedToken> => {
    calls.push(token);
    const answer = answers(token);
    if (typeof answer === 'string') throw new Error(answer);
    return answer;
  };
  return { verify, calls };
}

describe('cachingVerifier', () => {
  it('verifies a token once and answers the same caller until it expires, then verifies it again', async () => {
    let now = 1_000_000;
    const inner = countingVerifier((token) => ({ caller: caller(token), expiresAtMs: 1_060_000 }));
    const verify = cachingVerifier(inner.verify, { maxEntries: 10, maxAgeMs: 600_000, now: () => now });
    const first = await verify('token-a');
    expect(await verify('token-a')).toBe(first);
    expect(inner.calls).toEqual(['token-a']);
    now = 1_060_000; // the token's exp
    await verify('token-a');
    expect(inner.calls).toEqual(['token-a', 'token-a']);
  });

  it('never stores a refusal: every attempt with a refused token is verified and refused', async () => {
    const inner = countingVerifier(() => 'bad signature');
    const verify = cachingVerifier(inner.verify, { maxEntries: 10, maxAgeMs: 600_000 });
    await expect(verify('forged')).rejects.toThrow('bad signature');
    await expect(verify('forged')).rejects.toThrow('bad signature');
    expect(inner.calls).toEqual(['forged', 'forged']);
  });

  it('does not store a token that is already past its exp', async () => {
    const inner = countingVerifier((token) => ({ caller: caller(token), expiresAtMs: 999 }));
    const verify = cachingVerifier(inner.verify, { maxEntries: 10, maxAgeMs: 600_000, now: () => 1_000 });
    await verify('late');
    await verify('late');
    expect(inner.calls).toEqual(['late', 'late']);
  });

  it('re-verifies after maxAgeMs even when exp is later', async () => {
    let now = 0;
    const inner = countingVerifier((token) => ({ caller: caller(token), expiresAtMs: 10_000_000 }));
    const verify = cachingVerifier(inner.verify, { maxEntries: 10, maxAgeMs: 1_000, now: () => now });
    await verify('long-lived');
    now = 999;
    await verify('long-lived');
    now = 1_000;
    await verify('long-lived');
    expect(inner.calls).toEqual(['long-lived', 'long-lived']);
  });

  it('holds at most maxEntries tokens and evicts the least recently used', async () => {
    const inner = countingVerifier((token) => ({ caller: caller(token), expiresAtMs: Date.now() + 60_000 }));
    const verify = cachingVerifier(inner.verify, { maxEntries: 2, maxAgeMs: 600_000 });
    await verify('t1');
    await verify('t2');
    await verify('t1'); // t1 used last: t2 is now the least recently used
    await verify('t3'); // evicts t2
    expect(inner.calls).toEqual(['t1', 't2', 't3']);
    await verify('t1');
    await verify('t3');
    expect(inner.calls).toEqual(['t1', 't2', 't3']);
    await verify('t2');
    expect(inner.calls).toEqual(['t1', 't2', 't3', 't2']);
  });
});

describe('the token verifier with its cache', () => {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'invoice-api-token-cache-')), 'key.json');
  const config = { mode: 'dev', keyFile, issuer: DEV_TOKEN_ISSUER, audience: DEV_TOKEN_AUDIENCE } as const;

  it('refuses a copy of an accepted token altered in one character, before and after the original was cached', async () => {
    const verifier = await createTokenVerifier(config);
    const token = await mintDevToken({ keyFile });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flip = (text: string, at: number): string => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const forgedSignature = `${header}.${payload}.${flip(signature, 5)}`;
    // The same claims with a changed account id and the original signature.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedClaims = `${header}.${Buffer.from(JSON.stringify({ ...claims, account_id: 2 })).toString('base64url')}.${signature}`;

    await expect(verifier.verify(forgedSignature)).rejects.toMatchObject({ status: 401, tokenFailure: 'bad_signature' });
    expect((await verifier.verify(token)).accountId).toBe(1);
    expect((await verifier.verify(token)).accountId).toBe(1);
    await expect(verifier.verify(forgedSignature)).rejects.toMatchObject({ status: 401, tokenFailure: 'bad_signature' });
    await expect(verifier.verify(forgedClaims)).rejects.toMatchObject({ status: 401, tokenFailure: 'bad_signature' });
  });

  it('refuses an expired token every time', async () => {
    const verifier = await createTokenVerifier(config);
    const expired = await mintDevToken({ keyFile, ttlSeconds: -120 });
    await expect(verifier.verify(expired)).rejects.toMatchObject({ status: 401, tokenFailure: 'expired' });
    await expect(verifier.verify(expired)).rejects.toMatchObject({ status: 401, tokenFailure: 'expired' });
  });
});
