// Vitest global setup (vitest.config.ts): brings the generated code and the compiled service
// (scripts/build.mjs, packages/server/dist/) up to date once per run, before any test file starts a
// service process from it. Both steps skip their work when nothing changed, so a run on an unchanged
// tree pays a fraction of a second; a fresh clone or an edited source gets its build here.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export function setup(): void {
  for (const script of ['scripts/generate.mjs', 'scripts/build.mjs']) {
    // Output to stderr: the reporter owns stdout.
    execFileSync(process.execPath, [script], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
  }
}
