// Bearer tokens: OAuth 2.0 access tokens in the JWT profile (RFC 9068), verified on every request.
// The signature is checked with an allow-listed asymmetric algorithm only (never `none`, never an HMAC
// that could be "verified" with a public key), `exp`/`nbf` with 30 s of clock tolerance, `typ`, and
// issuer and audience. Keys come from the JWKS at JWT_JWKS_URL, or in development from the local key
// file the token command also uses. Runs before the body parser: a bad token is 401 whatever the body.
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey } from 'jose';
import type { AuthConfig } from '../config.js';
import type { Caller } from '../context.js';
import { DEV_KEY_ALGORITHM, loadOrCreateDevKey } from '../dev/dev-key.js';
import { HttpError } from './http-error.js';
import type { OperationEntry } from './locals.js';

/** Asymmetric signature algorithms a production authorization server may use. */
const jwksAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const clockToleranceSeconds = 30;
/** RFC 9068 says `at+jwt`; plain `JWT` is what many servers still send. Compared case-insensitively. */
const acceptedTypes = new Set(['at+jwt', 'application/at+jwt', 'jwt']);
const maxAccountId = 2_147_483_647;

export interface TokenVerifier {
  /** Resolves to the caller, or rejects with a 401 (bad token) or 503 (key set unreachable) HttpError. */
  verify(token: string): Promise<Caller>;
}

export async function createTokenVerifier(config: AuthConfig): Promise<TokenVerifier> {
  let key: CryptoKey | JWTVerifyGetKey;
  let algorithms: string[];
  if (config.mode === 'dev') {
    key = (await loadOrCreateDevKey(config.keyFile)).publicKey;
    algorithms = [DEV_KEY_ALGORITHM];
  } else {
    key = unavailableWhenUnreachable(createRemoteJWKSet(config.jwksUrl, { timeoutDuration: 3_000 }));
    algorithms = jwksAlgorithms;
  }
  const verifyOptions = { algorithms, issuer: config.issuer, audience: config.audience, clockTolerance: clockToleranceSeconds, requiredClaims: ['exp'] };

  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        const verified = typeof key === 'function' ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions);
        if (!acceptedTypes.has(String(verified.protectedHeader.typ ?? '').toLowerCase())) throw invalidToken();
        payload = verified.payload;
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw invalidToken();
      }
      return callerFrom(payload);
    },
  };
}

function callerFrom(payload: JWTPayload): Caller {
  const accountId = payload.account_id;
  if (typeof accountId !== 'number' || !Number.isInteger(accountId) || accountId < 1 || accountId > maxAccountId) throw invalidToken();
  const apiKey = nonEmptyString(payload.client_id) ?? nonEmptyString(payload.sub);
  if (apiKey === undefined) throw invalidToken();
  const scope = typeof payload.scope === 'string' ? payload.scope : '';
  return { accountId, apiKey, scopes: new Set(scope.split(' ').filter((entry) => entry !== '')) };
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A JWKS that cannot be fetched says nothing about the token: answer 503 (try again) rather than 401
 * (get a new token). Only "no key matches the token" stays a token problem.
 */
function unavailableWhenUnreachable(keySet: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw HttpError.serviceUnavailable('The token could not be verified because the key set is unreachable. Try again shortly.', error);
    }
  };
}

export function invalidToken(): HttpError {
  return new HttpError(401, 'unauthorized', 'The access token is invalid or expired.', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
}

/** 403 for a token without the operation's scopes; the message names the operation by its summary. */
export function insufficientScope(operation: OperationEntry): HttpError {
  const scopes: readonly string[] = operation.scopes;
  const action = operation.summary.charAt(0).toLowerCase() + operation.summary.slice(1);
  const needs = scopes.length === 1 ? `the scope '${scopes[0]}'` : `the scopes ${scopes.map((scope) => `'${scope}'`).join(', ')}`;
  return new HttpError(403, 'forbidden', `Your permissions to ${action} are insufficient: the token needs ${needs}.`, {
    'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`,
  });
}

/** Reads `Authorization: Bearer <token>` (the scheme is case-insensitive, RFC 7235). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header?.trim() ?? '');
  return match?.[1];
}

/** Verifies the token of every operation that needs one and records the caller in `res.locals`. */
export function authenticate(verifier: TokenVerifier): RequestHandler {
  return (req, res, next) => {
    if (res.locals.operation?.authenticated !== true) {
      next();
      return;
    }
    const token = bearerToken(req.get('authorization'));
    if (token === undefined) {
      next(invalidToken());
      return;
    }
    verifier.verify(token).then(
      (caller) => {
        res.locals.caller = caller;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

function hasScopes(caller: Caller | undefined, required: readonly string[]): boolean {
  return caller !== undefined && required.every((scope) => caller.scopes.has(scope));
}

/**
 * 403 when the token lacks the operation's scopes (from the operation table, i.e. the spec's
 * `security`): the one scope check (the validator's security step is off). Runs after the rate limit
 * and before the body parser, so that the decided order holds even for a body that is malformed or too
 * large: token, rate limit, scope, then the body.
 */
export function requireScopes(): RequestHandler {
  return (_req, res, next) => {
    const operation = res.locals.operation;
    if (operation === undefined || !operation.authenticated || hasScopes(res.locals.caller, operation.scopes)) {
      next();
      return;
    }
    next(insufficientScope(operation));
  };
}
