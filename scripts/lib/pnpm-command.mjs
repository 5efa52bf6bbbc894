// How tests run the repository's pnpm: the very pnpm that runs them when `pnpm test` started the
// suite (pnpm names its own script in `npm_execpath`), else `npx --yes pnpm@<pinned>`, which is what
// `pnpm` means in the README where pnpm is not installed. Both are the pinned version; the first
// saves npx's resolution of the package, over a second of CPU on every call.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** The packageManager field's version, e.g. `10.34.9`. */
export const pinnedPnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.replace(/^pnpm@/, '');

/** The pnpm script that runs this process's `pnpm` command, when it is the pinned version; else undefined. */
function runningPnpm(env = process.env) {
  const script = env.npm_execpath;
  if (script === undefined || !/^pnpm\.c?js$/.test(basename(script))) return undefined;
  return env.npm_config_user_agent?.startsWith(`pnpm/${pinnedPnpmVersion} `) ? script : undefined;
}

/**
 * The command and leading arguments that run the pinned pnpm: `[node, pnpm.cjs]` or
 * `['npx', '--yes', 'pnpm@<version>']`.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {[string, ...string[]]}
 */
export function pnpmCommand(env = process.env) {
  const script = runningPnpm(env);
  return script === undefined ? ['npx', '--yes', `pnpm@${pinnedPnpmVersion}`] : [process.execPath, script];
}

/** `text` quoted for bash. */
function shellQuoted(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A bash function line defining `pnpm` as `pnpmCommand()`, for running README blocks as written.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function pnpmShellFunction(env = process.env) {
  return `pnpm() { ${pnpmCommand(env).map(shellQuoted).join(' ')} "$@"; }`;
}
