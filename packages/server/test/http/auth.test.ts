// Token verification through real HTTP: the development key, and a JWKS served by a local HTTP server
// standing in for a production authorization server (issuer and audience checked, keys fetched).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER } from '../../src/config.js';
import { loadOrCreateDevKey, type DevKey } from '../../src/dev/dev-key.js';
import { useTestDatabase } from '../support/databases.js';
import { capturingLogger, startTestService, testKeyFile, token, type TestService } from './support/service.js';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: DEV_TOKEN_ISSUER,
    aud: DEV_TOKEN_AUDIENCE,
    sub: 'tester',
    client_id: 'tester',
    account_id: 1,
    scope: 'users:read',
    iat: nowSeconds(),
    exp: nowSeconds() + 600,
    ...overrides,
  };
}

function sign(payload: JWTPayload, key: CryptoKey, header: { alg?: string; typ?: string | undefined; kid?: string } = {}): Promise<string> {
  const protectedHeader = {
    alg: header.alg ?? 'ES256',
    ...('typ' in header ? (header.typ === undefined ? {} : { typ: header.typ }) : { typ: 'at+jwt' }),
    ...(header.kid === undefined ? {} : { kid: header.kid }),
  };
  return new SignJWT(payload).setProtectedHeader(protectedHeader).sign(key);
}

/** The reason an invalid_token challenge gives, by its RFC 6750 `error_description`. */
const descriptions = {
  expired: 'The access token expired',
  not_yet_valid: 'The access token is not valid yet',
  wrong_issuer: 'The access token was issued by another issuer',
  wrong_audience: 'The access token is meant for another audience',
  bad_signature: 'The access token signature does not verify',
  malformed: 'The access token is malformed or lacks a required claim',
} as const;
type Reason = keyof typeof descriptions;

describe('tokens signed with the development key', () => {
  const database = useTestDatabase('postgres', { name: 'http_auth' });
  const log = capturingLogger();
  let service: TestService;
  let devKey: DevKey;

  beforeAll(async () => {
    service = await startTestService({ database: database(), logger: log.logger });
    devKey = await loadOrCreateDevKey(testKeyFile);
  });
  afterAll(() => service?.close());

  /** 200, or the reason of a 401, checked against the challenge, the body and the request's log line. */
  const answerTo = async (bearer: string): Promise<200 | Reason> => {
    const requestId = `auth-${Math.random().toString(36).slice(2)}`;
    const response = await fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}`, 'x-request-id': requestId } });
    if (response.status === 200) return 200;
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    const match = /^Bearer realm="invoice-api", error="invalid_token", error_description="([^"]+)"$/.exec(challenge);
    expect(match, challenge).not.toBeNull();
    const reason = (Object.keys(descriptions) as Reason[]).find((key) => descriptions[key] === match![1]);
    expect(reason, match![1]).toBeDefined();
    expect(await response.json()).toEqual({ error: 'unauthorized', message: `${descriptions[reason!]}.` });
    await expect.poll(() => log.lines().find((line) => line.requestId === requestId)).toMatchObject({ tokenFailure: reason });
    return reason!;
  };

  it('answers a request without a bearer token with a bare challenge: no error code (RFC 6750 3.1)', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }] as Array<Record<string, string>>) {
      const response = await fetch(`${service.url}/api/v1/users`, { headers: { ...headers, 'x-request-id': 'auth-missing' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="invoice-api"');
      expect(await response.json()).toEqual({
        error: 'unauthorized',
        message: 'The access token is missing; a missing, invalid or expired token is refused. Send Authorization: Bearer <token>.',
      });
    }
    await expect.poll(() => log.lines().find((line) => line.requestId === 'auth-missing')).toMatchObject({ tokenFailure: 'missing' });
  });

  it('never logs the token itself', async () => {
    const minted = await token({ ttlSeconds: -120 });
    expect(await answerTo(minted)).toBe('expired');
    expect(JSON.stringify(log.lines())).not.toContain(minted.split('.')[2]);
  });

  it('accepts a minted token, and the scheme in any case', async () => {
    const minted = await token();
    expect(await answerTo(minted)).toBe(200);
    const response = await fetch(`${service.url}/api/v1/users`, { headers: { authorization: `bearer ${minted}` } });
    expect(response.status).toBe(200);
  });

  it('accepts typ JWT as well as at+jwt', async () => {
    expect(await answerTo(await sign(claims(), devKey.privateKey, { typ: 'JWT' }))).toBe(200);
    expect(await answerTo(await sign(claims(), devKey.privateKey, { typ: 'at+jwt' }))).toBe(200);
  });

  it('refuses another typ or none at all as malformed', async () => {
    expect(await answerTo(await sign(claims(), devKey.privateKey, { typ: 'dpop+jwt' }))).toBe('malformed');
    expect(await answerTo(await sign(claims(), devKey.privateKey, { typ: undefined }))).toBe('malformed');
  });

  it('tolerates 30 s of clock skew on exp, and no more: expired', async () => {
    expect(await answerTo(await sign(claims({ exp: nowSeconds() - 10 }), devKey.privateKey))).toBe(200);
    expect(await answerTo(await sign(claims({ exp: nowSeconds() - 45 }), devKey.privateKey))).toBe('expired');
  });

  it('refuses a token that is not valid yet (nbf beyond the tolerance)', async () => {
    expect(await answerTo(await sign(claims({ nbf: nowSeconds() + 120 }), devKey.privateKey))).toBe('not_yet_valid');
    expect(await answerTo(await sign(claims({ nbf: nowSeconds() + 10 }), devKey.privateKey))).toBe(200);
  });

  it('refuses a token without exp as malformed', async () => {
    const { exp: _exp, ...withoutExp } = claims();
    expect(await answerTo(await sign(withoutExp, devKey.privateKey))).toBe('malformed');
  });

  it('refuses a token signed with another key: bad signature', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    expect(await answerTo(await sign(claims(), privateKey, { kid: devKey.kid }))).toBe('bad_signature');
  });

  it('refuses a wrong audience or issuer, naming which', async () => {
    expect(await answerTo(await sign(claims({ aud: 'urn:someone-else' }), devKey.privateKey))).toBe('wrong_audience');
    expect(await answerTo(await sign(claims({ iss: 'https://evil.example' }), devKey.privateKey))).toBe('wrong_issuer');
  });

  it("refuses alg 'none' as malformed", async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'at+jwt' })}.${base64url(claims())}.`;
    expect(await answerTo(unsigned)).toBe('malformed');
  });

  it('refuses HS256 signed with the public key (algorithm confusion)', async () => {
    const publicPem = await exportSPKI(devKey.publicKey);
    const publicJwk = JSON.stringify(await exportJWK(devKey.publicKey));
    for (const secret of [publicPem, publicJwk]) {
      const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: devKey.kid }).sign(new TextEncoder().encode(secret));
      expect(await answerTo(forged)).toBe('malformed');
    }
  });

  it('refuses a token without a valid account_id', async () => {
    const { account_id: _accountId, ...withoutAccount } = claims();
    expect(await answerTo(await sign(withoutAccount, devKey.privateKey))).toBe('malformed');
    for (const accountId of [0, -1, 1.5, '1', 2_147_483_648]) {
      expect(await answerTo(await sign(claims({ account_id: accountId }), devKey.privateKey)), String(accountId)).toBe('malformed');
    }
  });

  it('refuses a token with neither client_id nor sub (no API key to count against)', async () => {
    const { client_id: _clientId, sub: _sub, ...anonymous } = claims();
    expect(await answerTo(await sign(anonymous, devKey.privateKey))).toBe('malformed');
  });

  it('uses sub as the API key when client_id is absent', async () => {
    const { client_id: _clientId, ...withSubOnly } = claims();
    expect(await answerTo(await sign(withSubOnly, devKey.privateKey))).toBe(200);
  });

  it('refuses garbage and a truncated token', async () => {
    const minted = await token();
    expect(await answerTo('not-a-jwt')).toBe('malformed');
    // An ES256 signature of the wrong length cannot be checked at all.
    expect(await answerTo(minted.slice(0, -5))).toBe('malformed');
    expect(await answerTo('a b')).toBe('malformed');
  });

  it('refuses a token whose claims were changed after signing: bad signature', async () => {
    const [header, , signature] = (await token()).split('.');
    expect(await answerTo(`${header}.${base64url(claims({ account_id: 2, scope: 'users:read' }))}.${signature}`)).toBe('bad_signature');
  });
});

describe('tokens from a JWKS (production mode)', () => {
  const database = useTestDatabase('postgres', { name: 'http_auth_jwks' });
  const issuer = 'https://auth.test.example/';
  const audience = 'https://api.test.example';
  let jwksServer: Server;
  let jwksUrl: string;
  let service: TestService;
  let signingKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
    jwksServer = createServer((req, res) => {
      if (req.url?.endsWith('?down')) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
    service = await startTestService({ database: database(), env: { JWT_ISSUER: issuer, JWT_AUDIENCE: audience, JWT_JWKS_URL: jwksUrl } });
  });
  afterAll(async () => {
    await service?.close();
    await new Promise((resolve) => jwksServer?.close(resolve));
  });

  const usersWith = (bearer: string) => fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });
  const productionClaims = (overrides: JWTPayload = {}) => claims({ iss: issuer, aud: audience, ...overrides });

  it('accepts a token of the configured issuer and audience', async () => {
    const response = await usersWith(await sign(productionClaims(), signingKey, { alg: 'RS256', kid: 'rsa-1' }));
    expect(response.status).toBe(200);
  });

  it('refuses another issuer or audience', async () => {
    expect((await usersWith(await sign(productionClaims({ iss: 'https://other.example/' }), signingKey, { alg: 'RS256', kid: 'rsa-1' }))).status).toBe(401);
    expect((await usersWith(await sign(productionClaims({ aud: DEV_TOKEN_AUDIENCE }), signingKey, { alg: 'RS256', kid: 'rsa-1' }))).status).toBe(401);
  });

  it('refuses a development token', async () => {
    expect((await usersWith(await token())).status).toBe(401);
  });

  it('answers 503, not 401, when the key set cannot be fetched', async () => {
    // A second service whose key set URL answers 503: its first verification must fetch, and fails.
    const unreachable = await startTestService({ database: database(), env: { JWT_ISSUER: issuer, JWT_AUDIENCE: audience, JWT_JWKS_URL: `${jwksUrl}?down` } });
    try {
      const bearer = await sign(productionClaims(), signingKey, { alg: 'RS256', kid: 'rsa-1' });
      const response = await fetch(`${unreachable.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({ error: 'service_unavailable' });
    } finally {
      await unreachable.close();
    }
  });
});
