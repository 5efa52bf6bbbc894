// Which pnpm the tests run (scripts/lib/pnpm-command.mjs): the one running the suite when it is the
// pinned version, else npx with the pinned version.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pinnedPnpmVersion, pnpmCommand, pnpmShellFunction } from '../../../../scripts/lib/pnpm-command.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'pnpm-command-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const underPinnedPnpm = (script: string) => ({ npm_execpath: script, npm_config_user_agent: `pnpm/${pinnedPnpmVersion} npm/? node/v20.20.2 linux x64` });

describe('pnpmCommand', () => {
  it('is the pnpm script that runs the suite when it is the pinned version', () => {
    expect(pinnedPnpmVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pnpmCommand(underPinnedPnpm('/opt/pnpm/bin/pnpm.cjs'))).toEqual([process.execPath, '/opt/pnpm/bin/pnpm.cjs']);
  });

  it.each([
    ['outside a package manager', {}],
    ['under npm', { npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js', npm_config_user_agent: 'npm/11.0.0 node/v20.20.2 linux x64' }],
    ['under another pnpm version', { npm_execpath: '/opt/pnpm/bin/pnpm.cjs', npm_config_user_agent: 'pnpm/9.0.0 npm/? node/v20.20.2 linux x64' }],
  ])('is npx with the pinned version %s', (_name, env) => {
    expect(pnpmCommand(env)).toEqual(['npx', '--yes', `pnpm@${pinnedPnpmVersion}`]);
  });
});

describe('pnpmShellFunction', () => {
  it("defines bash's pnpm as that command, whatever characters its path holds", () => {
    const directory = join(scratch, "it's a dir $HOME");
    mkdirSync(directory);
    const script = join(directory, 'pnpm.cjs');
    writeFileSync(script, 'console.log(JSON.stringify(process.argv.slice(2)));\n');
    const output = execFileSync('bash', ['-c', `set -euo pipefail\n${pnpmShellFunction(underPinnedPnpm(script))}\npnpm --filter 'a b' test`], {
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual(['--filter', 'a b', 'test']);
  });
});
