// The README's quick-start token line, run as written in a scratch copy of the repository, when pnpm
// installs before running the command (verifyDepsBeforeRun): on a fresh clone, and after a change to
// package.json (what a `git pull` that brings a dependency does). That install inherits the command's
// stdout; `TOKEN=$(...)` must still capture one token and nothing else (pnpm-workspace.yaml's useStderr
// sends pnpm's report to stderr).
import { spawn } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../scripts/lib/prism.mjs';
import { copyRepository } from '../../src/scratch-copy.js';

/** The line of the README's quick start that captures a token, e.g. `TOKEN=$(npx pnpm@10.34.9 --silent token)`. */
function readmeTokenLine(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const line = readme.split('\n').find((candidate) => /^TOKEN=\$\(.*\btoken\)$/.test(candidate));
  if (line === undefined) throw new Error('README.md has no line TOKEN=$(... token)');
  return line;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

let scratch: string;
let keyFile: string;
let tokenLine: string;

// pnpm and npm read `npm_*` and `pnpm_*` variables as configuration: those of the pnpm running this
// test stay out (under `pnpm test`, pnpm_config_verify_deps_before_run would turn the install off).
// Offline: the pnpm store has every package, and a test never reaches the registry.
function childEnv(): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !/^p?npm_/i.test(name));
  return { ...Object.fromEntries(inherited), NODE_OPTIONS: '', FORCE_COLOR: '0', DEV_KEY_FILE: keyFile, npm_config_offline: 'true' };
}

/** The README's line in bash, then the variable printed: stdout is exactly what the line captured. */
function runTokenLine(): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${tokenLine}\nprintf '%s\\n' "$TOKEN"`], {
      cwd: scratch,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** stdout is one line, a JWT signed with the development key, with the token command's default claims. */
function expectOneToken(outcome: Outcome): void {
  expect(outcome.code, outcome.stderr).toBe(0);
  expect(outcome.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  const [header = '', payload = '', signature = ''] = outcome.stdout.trim().split('.');
  const { jwk } = JSON.parse(readFileSync(keyFile, 'utf8')) as { jwk: Record<string, string> };
  const { d: _private, ...publicJwk } = jwk;
  const key = createPublicKey({ key: publicJwk, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(true);
  expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toMatchObject({ client_id: 'dev', account_id: 1 });
}

describe("the README's token line when pnpm installs first", () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'readme-token-line-'));
    keyFile = join(scratch, '.data', 'dev-key.json');
    tokenLine = readmeTokenLine();
    copyRepository(scratch);
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  // Upper bounds, not waits: an install linked from the pnpm store with `pnpm generate` takes about 15 s
  // on an idle 2-core machine and several times that on a loaded one.
  it('on a fresh clone: the install report goes to stderr and the line captures one token', async () => {
    const outcome = await runTokenLine();
    expect(outcome.stderr).toMatch(/Done in [\d.]+m?s using pnpm/);
    expectOneToken(outcome);
  }, 300_000);

  it('after package.json changed: pnpm installs again, and the line still captures one token', async () => {
    const manifestFile = join(scratch, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, keywords: ['changed-by-a-pull'] }, null, 2)}\n`);
    const outcome = await runTokenLine();
    expect(outcome.stderr).toMatch(/Done in [\d.]+m?s using pnpm/);
    expectOneToken(outcome);
  }, 300_000);
});
