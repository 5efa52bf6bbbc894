#!/usr/bin/env node
// `pnpm typecheck`: tsc over every package, type-level tests included, as three programs run side by
// side rather than one per package. The node packages (contract, server, client, contract-tests,
// robustness, bench) share one set of compiler options, and each of them reads the contract's and
// the server's sources again: checked one program per package, the same files were checked up to
// six times. One program over all of them (scripts/tsconfig.node-packages.json) checks each file once
// with the options every package's own tsconfig.json gives it. The example app's two programs differ
// (DOM and bundler resolution): they stay apart.
//
// Every program's errors are printed, each under its name, even when another fails; exit 1 on any
// error. Incremental: what each program checked is kept in node_modules/.cache/typecheck/, so the
// next run checks only what changed and what depends on it. A package's own `typecheck` script
// (`pnpm --filter ./packages/server typecheck`) still checks that package alone.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const cacheDir = join(root, 'node_modules/.cache/typecheck');

const programs = [
  {
    name: 'node packages (contract, server, client, contract-tests, robustness, bench)',
    project: 'scripts/tsconfig.node-packages.json',
    cache: 'node-packages',
  },
  { name: 'example-app', project: 'packages/example-app/tsconfig.json', cache: 'example-app' },
  { name: 'example-app tests and tooling', project: 'packages/example-app/tsconfig.node.json', cache: 'example-app-node' },
];

/** Runs one program; resolves with its exit code and everything it printed. */
function check({ project, cache }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--incremental', '--tsBuildInfoFile', join(cacheDir, `${cache}.tsbuildinfo`)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

mkdirSync(cacheDir, { recursive: true });
const started = performance.now();
const results = await Promise.all(
  programs.map(async (program) => {
    const result = await check(program);
    // Printed as each program ends, whole, so that two programs' errors never interleave.
    const verdict = result.code === 0 ? 'ok' : 'FAILED';
    process.stdout.write(`typecheck: ${program.name}: ${verdict}\n${result.output === '' ? '' : `${result.output.trimEnd()}\n`}`);
    return result;
  }),
);
const failed = results.filter((result) => result.code !== 0).length;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`typecheck: ${failed === 0 ? 'every program passed' : `${failed} of ${programs.length} programs failed`} (${seconds} s)\n`);
process.exitCode = failed === 0 ? 0 : 1;
