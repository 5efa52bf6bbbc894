// The development signing key: one ES256 key pair in a git-ignored file, shared by the service (which
// verifies with its public half) and the token command (which signs with its private half), so that
// development and tests need no authorization server. Created on first use, readable by the owner only.
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

export const DEV_KEY_ALGORITHM = 'ES256';

export interface DevKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

interface DevKeyFile {
  kid: string;
  alg: typeof DEV_KEY_ALGORITHM;
  /** The private JWK; its public half is the same object without `d`. */
  jwk: JWK;
}

/** Reads the key file, creating it (mode 0600) when it does not exist yet. */
export async function loadOrCreateDevKey(file: string): Promise<DevKey> {
  const existing = await readKeyFile(file);
  if (existing !== undefined) return importKey(existing, file);
  await createKeyFile(file);
  const created = await readKeyFile(file);
  if (created === undefined) throw new Error(`The development key file ${file} could not be created.`);
  return importKey(created, file);
}

async function readKeyFile(file: string): Promise<DevKeyFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isDevKeyFile(parsed)) {
    throw new Error(`The development key file ${file} is not a ${DEV_KEY_ALGORITHM} key written by this service; delete it to get a new one.`);
  }
  return parsed;
}

/**
 * Writes a new key atomically: the key goes to a private temporary file that is then hard-linked to
 * the final name. Linking fails when the name exists, so when two processes (parallel test files)
 * race, exactly one key wins and both read that one; nobody ever reads a half-written file.
 */
async function createKeyFile(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = await generateKeyPair(DEV_KEY_ALGORITHM, { extractable: true });
  const content: DevKeyFile = { kid: `dev-${randomUUID()}`, alg: DEV_KEY_ALGORITHM, jwk: await exportJWK(privateKey) };
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if (!(isNodeError(error) && error.code === 'EEXIST')) throw error;
  } finally {
    await unlink(temporary);
  }
}

async function importKey(content: DevKeyFile, file: string): Promise<DevKey> {
  const { d, ...publicJwk } = content.jwk;
  if (d === undefined) throw new Error(`The development key file ${file} holds no private key.`);
  const privateKey = await importJWK(content.jwk, DEV_KEY_ALGORITHM);
  const publicKey = await importJWK(publicJwk, DEV_KEY_ALGORITHM);
  if (!isCryptoKey(privateKey) || !isCryptoKey(publicKey)) throw new Error(`The development key file ${file} holds no ${DEV_KEY_ALGORITHM} key.`);
  return { kid: content.kid, privateKey, publicKey };
}

function isCryptoKey(key: CryptoKey | Uint8Array): key is CryptoKey {
  return !(key instanceof Uint8Array);
}

function isDevKeyFile(value: unknown): value is DevKeyFile {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof DevKeyFile, unknown>>;
  return (
    typeof candidate.kid === 'string' &&
    candidate.alg === DEV_KEY_ALGORITHM &&
    typeof candidate.jwk === 'object' &&
    candidate.jwk !== null &&
    (candidate.jwk as JWK).kty === 'EC' &&
    (candidate.jwk as JWK).crv === 'P-256'
  );
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
