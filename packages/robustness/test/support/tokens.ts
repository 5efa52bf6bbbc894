// Tokens for the tests: genuine development tokens (the service's own key file), and forgeries that
// must all be refused with 401.
import { readFileSync } from 'node:fs';
import { SignJWT, base64url, importJWK, type JWK } from 'jose';
import { devKeyFile } from './service.js';
import { mintDevToken } from './server-modules.js';

export const devIssuer = 'urn:invoice-api:dev';
export const devAudience = 'urn:invoice-api';

export function token(options: { accountId?: number; scopes?: string[]; clientId?: string; ttlSeconds?: number } = {}): Promise<string> {
  return mintDevToken({ keyFile: devKeyFile, ...options });
}

const unsigned = (header: object, payload: object): string => `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}.`;

function validClaims(now = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  return {
    iss: devIssuer,
    aud: devAudience,
    sub: 'forger',
    client_id: 'forger',
    account_id: 1,
    scope: 'invoices:read invoices:write',
    iat: now,
    exp: now + 600,
  };
}

/** The key file's private JWK (the service creates the file on first start). */
function privateJwk(): JWK & { kid?: string } {
  const file = JSON.parse(readFileSync(devKeyFile, 'utf8')) as { kid: string; jwk: JWK };
  return { ...file.jwk, kid: file.kid };
}

async function signWithDevKey(claims: Record<string, unknown>): Promise<string> {
  const jwk = privateJwk();
  const key = await importJWK(jwk, 'ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', ...(jwk.kid === undefined ? {} : { kid: jwk.kid }) }).sign(key);
}

/** Each forgery by name; every one must answer 401. */
export async function forgedTokens(): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const { d: _private, ...publicJwk } = privateJwk();
  const publicKeyBytes = new TextEncoder().encode(JSON.stringify(publicJwk));
  const genuine = await token();
  const [header, payload] = genuine.split('.');
  return {
    'alg none': unsigned({ alg: 'none', typ: 'at+jwt' }, validClaims(now)),
    'HS256 signed with the public key': await new SignJWT(validClaims(now)).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(publicKeyBytes),
    'wrong issuer': await signWithDevKey({ ...validClaims(now), iss: 'https://evil.example' }),
    'wrong audience': await signWithDevKey({ ...validClaims(now), aud: 'urn:someone-else' }),
    'expired (beyond the 30 s tolerance)': await signWithDevKey({ ...validClaims(now), iat: now - 600, exp: now - 120 }),
    'not yet valid (beyond the 30 s tolerance)': await signWithDevKey({ ...validClaims(now), nbf: now + 300 }),
    'no account_id': await signWithDevKey({ ...validClaims(now), account_id: undefined }),
    'account_id as a string': await signWithDevKey({ ...validClaims(now), account_id: '1 or 1=1' }),
    'signature of another payload': `${header}.${base64url.encode(JSON.stringify({ ...validClaims(now), account_id: 2 }))}.${genuine.split('.')[2]}`,
    'tampered payload, original signature': `${header}.${payload}x.${genuine.split('.')[2]}`,
    garbage: 'not-a-jwt',
  };
}
