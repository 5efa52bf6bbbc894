// A development signing key of this test process, and tokens signed with it, for files that start the
// service in another process: importing them does not load the app (http/support/service.ts does,
// through createApp), which a file whose service runs elsewhere would transform and load for nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintDevToken, type DevTokenOptions } from '../../src/dev/token.js';

/** One key for every test of this process, in a private temporary directory; created on first use. */
export const processKeyFile = join(mkdtempSync(join(tmpdir(), 'invoice-api-key-')), 'jwt-signing-key.json');

/** A token signed with that key; all scopes, client `dev`, account 1 unless told otherwise. */
export function signedToken(options: Omit<DevTokenOptions, 'keyFile'> = {}): Promise<string> {
  return mintDevToken({ ...options, keyFile: processKeyFile });
}
