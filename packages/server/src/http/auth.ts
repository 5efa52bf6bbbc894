// Bearer tokens: OAuth 2.0 access tokens in the JWT profile (RFC 9068), verified on every request.
// The signature is checked with an allow-listed asymmetric algorithm only (never `none`, never an HMAC
// that could be "verified" with a public key), `exp`/`nbf` with 30 s of clock tolerance, `typ`, and
// issuer and audience. Keys come from the JWKS at JWT_JWKS_URL, or in development from the local key
// file the token command also uses. Runs before the body parser: a bad token is 401 whatever the body.
// The 401 answers follow RFC 6750 section 3.1: a request without a bearer token gets a bare challenge
// (no error code); a bad token gets `error="invalid_token"` and an `error_description` saying which
// check failed, the same reason the request's log line carries. Nothing about the key or the claims'
// values is said.
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey } from 'jose';
import type { AuthConfig } from '../config.js';
import type { Caller } from '../context.js';
import { DEV_KEY_ALGORITHM, loadOrCreateDevKey } from '../dev/dev-key.js';
import { HttpError } from './http-error.js';
import type { OperationEntry } from './locals.js';
import { cachingVerifier, type VerifiedToken } from './token-cache.js';

/** Asymmetric signature algorithms a production authorization server may use. */
const jwksAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const clockToleranceSeconds = 30;
/** RFC 9068 says `at+jwt`; plain `JWT` is what many servers still send. Compared case-insensitively. */
const acceptedTypes = new Set(['at+jwt', 'application/at+jwt', 'jwt']);
const maxAccountId = 2_147_483_647;
/** Verified tokens remembered (token-cache.ts): a few MiB at most, far more clients than one instance serves. */
const tokenCacheEntries = 10_000;
/** jose's JWKS cache keeps a key this long too (cacheMaxAge): a withdrawn key stops working within it. */
const tokenCacheMaxAgeMs = 10 * 60_000;

/** The protection space named in every Bearer challenge. */
export const authRealm = 'invoice-api';

/** Why a token was refused; each has one description, sent in `error_description` and logged. */
export const tokenFailures = {
  expired: 'The access token expired',
  not_yet_valid: 'The access token is not valid yet',
  wrong_issuer: 'The access token was issued by another issuer',
  wrong_audience: 'The access token is meant for another audience',
  bad_signature: 'The access token signature does not verify',
  malformed: 'The access token is malformed or lacks a required claim',
} as const;

export type TokenFailure = keyof typeof tokenFailures;

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

  const verifyToken = async (token: string): Promise<VerifiedToken> => {
    let payload: JWTPayload;
    try {
      const verified = typeof key === 'function' ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions);
      if (!acceptedTypes.has(String(verified.protectedHeader.typ ?? '').toLowerCase())) throw invalidToken('malformed');
      payload = verified.payload;
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw invalidToken(failureOf(error));
    }
    // `exp` is required (requiredClaims) and was checked to be a number by jwtVerify.
    return { caller: callerFrom(payload), expiresAtMs: Number(payload.exp) * 1000 };
  };
  return { verify: cachingVerifier(verifyToken, { maxEntries: tokenCacheEntries, maxAgeMs: tokenCacheMaxAgeMs }) };
}

function callerFrom(payload: JWTPayload): Caller {
  const accountId = payload.account_id;
  if (typeof accountId !== 'number' || !Number.isInteger(accountId) || accountId < 1 || accountId > maxAccountId) throw invalidToken('malformed');
  const apiKey = nonEmptyString(payload.client_id) ?? nonEmptyString(payload.sub);
  if (apiKey === undefined) throw invalidToken('malformed');
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

/** Which check a token failed, from jose's error classes; anything unforeseen counts as malformed. */
export function failureOf(error: unknown): TokenFailure {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf' || error.claim === 'iat') return 'not_yet_valid';
    if (error.claim === 'iss') return 'wrong_issuer';
    if (error.claim === 'aud') return 'wrong_audience';
    return 'malformed';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return 'bad_signature';
  }
  return 'malformed';
}

/** The Bearer challenge without an error code: the request carried no bearer token at all. */
export const bareChallenge = `Bearer realm="${authRealm}"`;

/** 401 for a request without `Authorization: Bearer ...` (another scheme counts as none, RFC 6750 3.1). */
export function missingToken(): HttpError {
  return new HttpError(
    401,
    'unauthorized',
    'The access token is missing; a missing, invalid or expired token is refused. Send Authorization: Bearer <token>.',
    { 'WWW-Authenticate': bareChallenge },
  );
}

/** 401 for a token that failed `failure`'s check. The error carries the reason for the log line. */
export function invalidToken(failure: TokenFailure): HttpError & { tokenFailure: TokenFailure } {
  const description = tokenFailures[failure];
  const error = new HttpError(401, 'unauthorized', `${description}.`, {
    'WWW-Authenticate': `${bareChallenge}, error="invalid_token", error_description="${description}"`,
  });
  return Object.assign(error, { tokenFailure: failure });
}

/** 403 for a token without the operation's scopes; the message names the operation by its summary. */
export function insufficientScope(operation: OperationEntry): HttpError {
  const scopes: readonly string[] = operation.scopes;
  const action = operation.summary.charAt(0).toLowerCase() + operation.summary.slice(1);
  const needs = scopes.length === 1 ? `the scope '${scopes[0]}'` : `the scopes ${scopes.map((scope) => `'${scope}'`).join(', ')}`;
  return new HttpError(403, 'forbidden', `Your permissions to ${action} are insufficient: the token needs ${needs}.`, {
    'WWW-Authenticate': `${bareChallenge}, error="insufficient_scope", scope="${scopes.join(' ')}"`,
  });
}

/**
 * Reads `Authorization: Bearer <token>` (the scheme is case-insensitive, RFC 7235): undefined when
 * there is no Bearer credential at all, `malformed` when the Bearer credential is not token68 syntax.
 */
export function bearerToken(header: string | undefined): string | 'malformed' | undefined {
  const credentials = header?.trim() ?? '';
  if (!/^Bearer(?: |$)/i.test(credentials)) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(credentials);
  return match?.[1] ?? 'malformed';
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
      res.locals.tokenFailure = 'missing';
      next(missingToken());
      return;
    }
    if (token === 'malformed') {
      res.locals.tokenFailure = 'malformed';
      next(invalidToken('malformed'));
      return;
    }
    verifier.verify(token).then(
      (caller) => {
        res.locals.caller = caller;
        next();
      },
      (error: unknown) => {
        if (error instanceof HttpError && 'tokenFailure' in error && typeof error.tokenFailure === 'string') res.locals.tokenFailure = error.tokenFailure;
        next(error);
      },
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
