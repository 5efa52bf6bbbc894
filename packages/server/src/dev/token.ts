// Mints development access tokens signed with the local development key: the same JWT profile
// (RFC 9068) a production authorization server issues, with the fixed development issuer and audience.
// Used by `pnpm token`, by tests, and by other packages (`@invoice-api/server/dev-token`).
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { operationTable } from '@invoice-api/contract';
import { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER, defaultDevKeyFile } from '../config.js';
import { DEV_KEY_ALGORITHM, loadOrCreateDevKey } from './dev-key.js';

export interface DevTokenOptions {
  /** Scopes to grant; default: every scope an operation of the spec asks for. */
  scopes?: string[];
  /** The API key (`client_id` and `sub`); default `dev`. */
  clientId?: string;
  /** The caller's account (`account_id`); default 1. */
  accountId?: number;
  /** Lifetime in seconds; default 3600. Negative: a token that expired that many seconds ago. */
  ttlSeconds?: number;
  /** Key file; default DEV_KEY_FILE, else `.dev/jwt-signing-key.json` at the repository root. */
  keyFile?: string;
}

/** Every scope the spec's operations require, in the order the operation table names them. */
export const allScopes: readonly string[] = [...new Set(Object.values(operationTable).flatMap((operation) => [...operation.scopes]))];

export async function mintDevToken(options: DevTokenOptions = {}): Promise<string> {
  const keyFile = options.keyFile ?? (process.env.DEV_KEY_FILE?.trim() || defaultDevKeyFile);
  const key = await loadOrCreateDevKey(keyFile);
  const clientId = options.clientId ?? 'dev';
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + (options.ttlSeconds ?? 3600);
  return (
    new SignJWT({
      scope: (options.scopes ?? allScopes).join(' '),
      client_id: clientId,
      account_id: options.accountId ?? 1,
    })
      .setProtectedHeader({ alg: DEV_KEY_ALGORITHM, typ: 'at+jwt', kid: key.kid })
      .setIssuer(DEV_TOKEN_ISSUER)
      .setAudience(DEV_TOKEN_AUDIENCE)
      .setSubject(clientId)
      .setJti(randomUUID())
      // An expired token is issued no later than it expired, as a real one would have been.
      .setIssuedAt(Math.min(now, expiresAt))
      .setExpirationTime(expiresAt)
      .sign(key.privateKey)
  );
}
