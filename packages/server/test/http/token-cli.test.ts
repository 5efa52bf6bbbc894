// The token command as a user runs it: a separate process printing one token on one line, which the
// service (sharing the key file) accepts with exactly the requested claims.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER } from '../../src/config.js';
import { loadOrCreateDevKey } from '../../src/dev/dev-key.js';
import { allScopes } from '../../src/dev/token.js';
import { testKeyFile } from './support/service.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../../src/dev/token-cli.ts', import.meta.url));

function token(args: string[]) {
  return run(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, DEV_KEY_FILE: testKeyFile }, timeout: 20_000 });
}

async function verified(printed: string) {
  const { publicKey } = await loadOrCreateDevKey(testKeyFile);
  return jwtVerify(printed.trim(), publicKey, { issuer: DEV_TOKEN_ISSUER, audience: DEV_TOKEN_AUDIENCE, algorithms: ['ES256'] });
}

describe('pnpm token', () => {
  it('prints one token with every scope, client dev, account 1 and one hour by default', async () => {
    const { stdout } = await token([]);
    expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const { payload, protectedHeader } = await verified(stdout);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ scope: allScopes.join(' '), client_id: 'dev', sub: 'dev', account_id: 1 });
    expect(allScopes).toHaveLength(6);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
  });

  it('takes scopes, client, account and lifetime', async () => {
    const { stdout } = await token(['--scope', 'invoices:read deliveries:write', '--client', 'acme-app', '--account', '7', '--ttl', '120']);
    const { payload } = await verified(stdout);
    expect(payload).toMatchObject({ scope: 'invoices:read deliveries:write', client_id: 'acme-app', account_id: 7 });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(120);
  });

  it('prints an already expired token for a negative lifetime', async () => {
    const { stdout } = await token(['--ttl', '-600']);
    expect(decodeProtectedHeader(stdout.trim()).alg).toBe('ES256');
    await expect(verified(stdout)).rejects.toThrow(/exp/);
  });

  it('refuses an unknown scope with a usage message and exit code 2', async () => {
    await expect(token(['--scope', 'invoices:delete'])).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('Unknown scope: invoices:delete'),
    });
  });
});
