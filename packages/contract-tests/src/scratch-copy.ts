// A scratch copy of the repository as it is on disk: every tracked file and every untracked one git does
// not ignore (so uncommitted work is what gets tested), without node_modules, generated code or data.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/prism.mjs';

export function copyRepository(target: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of new Set(listed.stdout.split('\0').filter(Boolean))) {
    const from = join(repoRoot, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file));
  }
}
