#!/usr/bin/env node
// `pnpm spec:diff [git-ref]`: fails (exit 1) when the spec in openapi/ breaks what the spec at
// git-ref (default HEAD~1) promised, listing each break with its JSON path. The ref's openapi/
// folder is taken with `git archive` into a temporary directory and bundled there with the same
// Redocly CLI, so both sides are compared as single documents. Breaks include what breaks the
// generated client or the handler map (a renamed operationId, a changed function signature); new
// operations are listed as needing a handler, without failing. Removing a deprecated item from its
// `x-sunset` day on is allowed and listed as retired; a break listed in openapi/breaking-changes.yaml
// (reviewed, with a reason and an expiry day) is listed as accepted; an expired entry fails the check.
//   --repo <dir>   compare that repository's working tree instead of this one (used by the tests)
//   --json         print the breaks as JSON
//   --today <day>  judge sunsets and expiries on this YYYY-MM-DD day instead of the current UTC day
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { repoRoot } from './lib/prism.mjs';
import { applyExceptions, changeName, exceptionsFile, parseExceptions } from './lib/breaking-changes.mjs';
import { compareSpecs, findNewOperations } from './lib/spec-diff-core.mjs';

const redocly = join(repoRoot, 'node_modules/.bin/redocly');

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr || result.stdout}`);
  return result.stdout;
}

/**
 * `<dir>/redocly.yaml` without its lint plugins and their rules, as a file for `--config`: a bundle runs
 * no lint rule, and a ref's archive holds openapi/ and redocly.yaml but not the plugin files it names
 * (Redocly refuses a configuration whose plugin it cannot load). Undefined when there is none.
 */
function bundleConfig(dir) {
  const file = join(dir, 'redocly.yaml');
  if (!existsSync(file)) return undefined;
  const { plugins: _plugins, ...config } = parse(readFileSync(file, 'utf8')) ?? {};
  const rules = Object.fromEntries(Object.entries(config.rules ?? {}).filter(([id]) => !id.includes('/') || id.startsWith('rule/')));
  const output = join(dir, '.spec-diff-redocly.yaml');
  writeFileSync(output, stringify({ ...config, rules }));
  return output;
}

/** Bundles `<dir>/openapi/openapi.yaml` (with `<dir>/redocly.yaml`, less its plugins, when there is one) into one object. */
function bundle(dir) {
  const output = join(dir, '.spec-diff-bundle.json');
  const config = bundleConfig(dir);
  try {
    run(redocly, ['bundle', 'openapi/openapi.yaml', '--output', output, '--ext', 'json', ...(config ? ['--config', config] : [])], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return JSON.parse(readFileSync(output, 'utf8'));
  } finally {
    rmSync(output, { force: true });
    if (config) rmSync(config, { force: true });
  }
}

/** The spec as it was at `ref`, or undefined when the ref has no openapi/ folder. */
function bundleAtRef(repo, ref) {
  const present = run('git', ['ls-tree', '--name-only', ref, 'openapi', 'redocly.yaml'], { cwd: repo }).split('\n').filter(Boolean);
  if (!present.includes('openapi')) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'spec-diff-'));
  try {
    const archive = spawnSync('git', ['archive', '--format=tar', ref, ...present], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
    if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr}`);
    run('tar', ['-x', '-C', dir], { input: archive.stdout, encoding: undefined });
    return bundle(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseArguments(argv) {
  const options = { ref: 'HEAD~1', repo: undefined, json: false, today: new Date().toISOString().slice(0, 10) };
  const rest = argv.filter((arg) => arg !== '--');
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index];
    if (arg === '--json') options.json = true;
    else if (arg === '--repo') options.repo = resolve(rest[++index] ?? '');
    else if (arg === '--today') options.today = rest[++index] ?? '';
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else options.ref = arg;
  }
  return options;
}

function main() {
  const options = parseArguments(process.argv.slice(2));
  if (options.help) {
    console.log('usage: pnpm spec:diff [git-ref] [--json] [--today YYYY-MM-DD]   (default ref: HEAD~1)');
    return 0;
  }
  const repo = options.repo ?? repoRoot;
  // A mistyped ref fails before any bundling.
  if (spawnSync('git', ['rev-parse', '--verify', '--quiet', `${options.ref}^{commit}`], { cwd: repo }).status !== 0) {
    throw new Error(`${options.ref} is not a commit in ${repo}`);
  }
  // A malformed exceptions file fails before any bundling.
  const exceptionsPath = join(repo, exceptionsFile);
  const entries = existsSync(exceptionsPath) ? parseExceptions(readFileSync(exceptionsPath, 'utf8')) : [];
  let head;
  if (options.repo) {
    head = bundle(repo);
  } else {
    run(process.execPath, [join(repoRoot, 'scripts/generate.mjs')], { cwd: repoRoot });
    head = JSON.parse(readFileSync(join(repoRoot, 'packages/contract/generated/openapi.json'), 'utf8'));
  }
  if (!existsSync(join(repo, 'openapi/openapi.yaml'))) throw new Error(`${repo} has no openapi/openapi.yaml`);
  const base = bundleAtRef(repo, options.ref);
  if (base === undefined) {
    console.log(`spec:diff: ${options.ref} has no openapi/ folder: nothing to compare against.`);
    return 0;
  }
  const compared = compareSpecs(base, head, { today: options.today });
  const { breaks, accepted, expired, unused } = applyExceptions(compared.breaks, entries, options.today);
  const failed = breaks.length > 0 || expired.length > 0;
  if (options.json) {
    console.log(JSON.stringify(breaks, null, 2));
    for (const entry of expired) console.error(`spec:diff: ${exceptionsFile}: the entry for ${entry.change} expired on ${entry.expires}: remove it`);
    return failed ? 1 : 0;
  }
  if (breaks.length === 0) console.log(`spec:diff: no breaking change since ${options.ref}.`);
  else {
    console.log(`spec:diff: ${breaks.length} breaking change(s) since ${options.ref}:`);
    for (const entry of breaks) console.log(`  ${entry.rule.padEnd(30)} ${entry.path}\n  ${''.padEnd(30)} ${entry.message}`);
  }
  for (const entry of compared.retired) console.log(`spec:diff: retired after its sunset (allowed): ${changeName(entry)}\n  ${entry.message}`);
  for (const entry of accepted) {
    console.log(`spec:diff: accepted by ${exceptionsFile} until ${entry.expires}: ${changeName(entry)}\n  ${entry.message}\n  reason: ${entry.reason}`);
  }
  for (const entry of expired) {
    console.log(`spec:diff: ${exceptionsFile}: the entry for ${entry.change} expired on ${entry.expires}: remove it (or review it again with a new expiry)`);
  }
  for (const entry of unused) console.log(`spec:diff: ${exceptionsFile}: the entry for ${entry.change} matches no change since ${options.ref}`);
  // Not breaks: listed so the designer knows the server will not compile until each has a handler.
  for (const operation of findNewOperations(base, head)) {
    console.log(`spec:diff: new operation ${operation.operationId} (${operation.method} ${operation.path}) needs a handler: run \`pnpm scaffold\`.`);
  }
  return failed ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(`spec:diff: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
