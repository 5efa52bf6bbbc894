#!/usr/bin/env node
// The last step of `pnpm test`: the typecheck (scripts/typecheck.mjs) and the vitest run side by side,
// once the lint passed and the generated code is up to date (`pnpm generate:all`, which both read).
// The typecheck's largest program keeps one core busy for half a minute while the other would idle;
// the test files fill it. The typecheck's report is printed whole after the test run, so that its
// errors are not lost among the test files' lines; the exit code is 1 when either failed. Arguments
// go to vitest (`pnpm test -- packages/server`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// vitest's command, as its package.json names it (the file is not among the package's exports).
const vitestManifest = createRequire(import.meta.url).resolve('vitest/package.json');
const vitest = join(dirname(vitestManifest), JSON.parse(readFileSync(vitestManifest, 'utf8')).bin.vitest);

/** Runs `node args`: its output passed through, or collected with `capture`. Resolves with the exit code and what was collected. */
function run(args, capture) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const [typecheck, tests] = await Promise.all([
  run([join(root, 'scripts/typecheck.mjs')], true),
  run([vitest, 'run', ...process.argv.slice(2).filter((argument) => argument !== '--')], false),
]);
process.stdout.write(`\n${typecheck.output}`);
process.exit(typecheck.code === 0 && tests.code === 0 ? 0 : 1);
