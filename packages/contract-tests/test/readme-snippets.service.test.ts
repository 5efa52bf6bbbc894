// The READMEs' snippets, run as written so that they cannot go stale: the root README's quick-start token
// and curl lines against the real service, the client guide's first call (saved where that guide says)
// against the Prism mock, and every line of the token options in the service's guide. Only the
// addresses are replaced by the free ports this test's own service and mock listen on.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startPrism, type RunningPrism } from '../../../scripts/lib/prism.mjs';
import { startService, type RunningService } from '../src/service.js';
import { pnpmShellFunction } from '../../../scripts/lib/pnpm-command.mjs';

const run = promisify(execFile);

interface Claims {
  scope?: string;
  client_id?: string;
  account_id?: number;
  iat: number;
  exp: number;
}

/** The payload of a JWT, unverified (the service's own tests verify tokens). */
function claimsOf(token: string): Claims {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Claims;
}
/** The text of one `## ` section of a README (relative to the repository root). */
function section(readme: string, heading: string): string {
  const text = readFileSync(join(repoRoot, readme), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`${readme} has no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The first fenced block in `language` of that section that holds `marker`. */
function blockWith(readme: string, heading: string, language: 'sh' | 'ts', marker: string): string {
  const blocks = [...section(readme, heading).matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
  const found = blocks.find((block) => block.includes(marker));
  if (found === undefined) throw new Error(`${readme}, "## ${heading}", has no ${language} block with ${marker}`);
  return found;
}

// Timeouts here are upper bounds that only end a hung run, not waits: the set-up runs the token command through pnpm
// and starts the service and Prism (seconds each when idle, a minute or more on a saturated machine).
describe("the READMEs' snippets", () => {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'readme-snippets-')), 'jwt-signing-key.json');
  // `pnpm` in the README is the pinned pnpm: the one running the suite, else npx (pnpm-command.mjs).
  const shell = (script: string) =>
    run('bash', ['-c', `set -euo pipefail\n${pnpmShellFunction()}\n${script}`], {
      cwd: repoRoot,
      env: { ...process.env, DEV_KEY_FILE: keyFile, NODE_OPTIONS: '' },
      timeout: 120_000,
    });
  let service: RunningService | undefined;
  let mock: RunningPrism | undefined;

  beforeAll(async () => {
    // The token command creates the key the service then verifies with; the mock needs no key, so it
    // starts meanwhile.
    [service, mock] = await Promise.all([shell('pnpm --silent token >/dev/null').then(() => startService({ keyFile })), startPrism({ mode: 'mock' })]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([service?.stop(), mock?.stop()]);
  });

  it('quick start: a token and the curl search against the service', async () => {
    const script = blockWith('README.md', 'Quick start', 'sh', 'TOKEN=$(').replaceAll('http://127.0.0.1:3000', service!.url);
    const { stdout } = await shell(script);
    const page = JSON.parse(stdout) as { data: Array<{ status: string }>; pagination: { limit: number } };
    expect(page.pagination.limit).toBe(3);
    expect(page.data.length).toBeGreaterThan(0);
    for (const invoice of page.data) expect(invoice.status).toBe('paid');
  });

  it("the client guide's first call runs where the guide says to save it, against the mock", async () => {
    const file = join(repoRoot, 'packages/client/examples', `readme-snippet-${process.pid}.ts`);
    writeFileSync(file, blockWith('packages/client/README.md', 'Start on the mock: a first call', 'ts', 'createApiClient'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
        cwd: repoRoot,
        env: { ...process.env, API_URL: mock!.url, NODE_OPTIONS: '' },
        timeout: 120_000,
      });
      expect(stdout.trim()).toMatch(/^\d+$/);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('every token option does what its comment says', async () => {
    const lines = blockWith('packages/server/README.md', 'Tokens', 'sh', '--ttl -60')
      .split('\n')
      .filter((line) => line.startsWith('pnpm --silent token'));
    expect(lines).toHaveLength(4);
    // The key exists (beforeAll), so the commands only read it and can run side by side; each keeps its place.
    const claims = await Promise.all(lines.map(async (line) => claimsOf((await shell(line.replace(/#.*$/, ''))).stdout.trim())));
    const [all, scoped, other, expired] = claims;
    expect(String(all!.scope).split(' ')).toHaveLength(6);
    expect(all).toMatchObject({ client_id: 'dev', account_id: 1 });
    expect(all!.exp - all!.iat).toBe(3600);
    expect(scoped!.scope).toBe('invoices:read deliveries:write');
    expect(other).toMatchObject({ client_id: 'mobile-app', account_id: 2 });
    expect(other!.exp - other!.iat).toBe(300);
    expect(expired!.exp).toBeLessThan(Date.now() / 1000);
  });
});
