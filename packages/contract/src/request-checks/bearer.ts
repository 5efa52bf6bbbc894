// The Bearer token's side of the service's answers (RFC 6750): reading `Authorization`, the challenge
// and the words of a 401 or 403. Shared by the service (auth.ts) and the client's MSW handlers, so a
// request without a token gets the same 401 from both.

/** The protection space named in every Bearer challenge. */
export const authRealm = 'invoice-api';

/** The Bearer challenge without an error code: the request carried no bearer token at all. */
export const bareChallenge = `Bearer realm="${authRealm}"`;

/** The message of the 401 for a request without `Authorization: Bearer ...`. */
export const missingTokenMessage = 'The access token is missing; a missing, invalid or expired token is refused. Send Authorization: Bearer <token>.';

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

/** The challenge of the 401 for a token that failed `failure`'s check. */
export function invalidTokenChallenge(failure: TokenFailure): string {
  return `${bareChallenge}, error="invalid_token", error_description="${tokenFailures[failure]}"`;
}

/** The 403's message for a token without the operation's scopes; names the operation by its summary. */
export function insufficientScopeMessage(summary: string, scopes: readonly string[]): string {
  const action = summary.charAt(0).toLowerCase() + summary.slice(1);
  const needs = scopes.length === 1 ? `the scope '${scopes[0]}'` : `the scopes ${scopes.map((scope) => `'${scope}'`).join(', ')}`;
  return `Your permissions to ${action} are insufficient: the token needs ${needs}.`;
}

/** The 403's challenge: the scopes the operation needs. */
export function insufficientScopeChallenge(scopes: readonly string[]): string {
  return `${bareChallenge}, error="insufficient_scope", scope="${scopes.join(' ')}"`;
}

/**
 * Reads `Authorization: Bearer <token>` (the scheme is case-insensitive, RFC 7235): undefined when
 * there is no Bearer credential at all, `malformed` when the Bearer credential is not token68 syntax.
 */
export function bearerToken(header: string | null | undefined): string | 'malformed' | undefined {
  const credentials = header?.trim() ?? '';
  if (!/^Bearer(?: |$)/i.test(credentials)) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(credentials);
  return match?.[1] ?? 'malformed';
}
