// A scratch copy of the repository as it is on disk: every tracked file and every untracked one git does
// not ignore (so uncommitted work is what gets tested), without node_modules or data, and without
// generated code unless asked for.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/prism.mjs';

export interface CopyOptions {
  /**
   * Also copy the `generated/` folders scripts/generate.mjs writes, each with the hash of the inputs it
   * was generated from: in the copy, a folder whose inputs are unchanged is up to date (generating it
   * again would write the same files), and one whose inputs differ is generated again, as in a fresh clone.
   */
  generated?: boolean;
}

function listed(args: string[]): string[] {
  const result = spawnSync('git', ['ls-files', '-z', ...args], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ls-files failed: ${result.stderr}`);
  return [...new Set(result.stdout.split('\0').filter(Boolean))];
}

// The hashes go last, after every file they vouch for (one generation writes several folders): a
// generation finishing in the repository meanwhile leaves the copy its own hash, never an older one
// vouching for files that generation replaced.
const inputsHashFile = '.inputs-hash';

export function copyRepository(target: string, { generated = false }: CopyOptions = {}): void {
  for (const file of listed(['--cached', '--others', '--exclude-standard'])) {
    const from = join(repoRoot, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file));
  }
  if (!generated) return;
  const folders = listed(['--others', '--ignored', '--exclude-standard', '--directory']).filter(
    (path) => /(^|\/)generated\/$/.test(path) && !path.split('/').includes('node_modules'),
  );
  for (const folder of folders) {
    mkdirSync(join(target, folder), { recursive: true });
    // A generation's files are written under a temporary name (`.partial`) and renamed when complete.
    for (const name of readdirSync(join(repoRoot, folder)).filter((name) => name !== inputsHashFile && !name.includes('.partial')))
      cpSync(join(repoRoot, folder, name), join(target, folder, name), { recursive: true });
  }
  for (const hash of folders.map((folder) => join(folder, inputsHashFile)).filter((hash) => existsSync(join(repoRoot, hash))))
    cpSync(join(repoRoot, hash), join(target, hash));
}
