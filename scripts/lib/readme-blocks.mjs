// The fenced blocks of the READMEs, found the way the README tests name them: by the guide, the
// heading they stand under and a marker they hold. Every block is run or checked by a test, or carries
// `<!-- not run: <why> -->` on the line before it (packages/contract/test/readme-blocks.unit.test.ts
// holds the list of which test covers which block).
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpmShellFunction } from './pnpm-command.mjs';

export const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '../..');

const skipped = new Set(['node_modules', '.git', 'dist', 'generated', '.data', '.dev', 'test-output', 'coverage']);

/** Every README*.md of the repository outside dependencies and build output, relative to its root. */
export function readmeFiles(dir = repoRoot) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return skipped.has(entry.name) || entry.name.startsWith('.readme-') ? [] : readmeFiles(join(dir, entry.name));
    return /^README.*\.md$/.test(entry.name) ? [relative(repoRoot, join(dir, entry.name))] : [];
  });
}

const notRunMarker = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/;

/**
 * The fenced blocks of a Markdown text, in order: the language its fence names, its text (the
 * fence's indentation removed, without the fences), its first line, the line of its opening fence,
 * the nearest heading above it (as written: `### Backups`), and the reason given by a
 * `<!-- not run: ... -->` comment on the line before the fence (blank lines between allowed).
 * @param {string} markdown
 */
export function fencedBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  let heading = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = /^(\s*)```\s*([\w-]*)\s*$/.exec(line);
    if (fence === null) {
      if (/^#{1,6} /.test(line)) heading = line.trim();
      continue;
    }
    const indent = fence[1] ?? '';
    const body = [];
    let end = index + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] ?? '')) {
      body.push((lines[end] ?? '').startsWith(indent) ? (lines[end] ?? '').slice(indent.length) : (lines[end] ?? ''));
      end++;
    }
    let previous = index - 1;
    while (previous >= 0 && (lines[previous] ?? '').trim() === '') previous--;
    const notRun = notRunMarker.exec(lines[previous] ?? '')?.[1];
    const text = body.join('\n');
    blocks.push({ language: fence[2] ?? '', text, firstLine: (body[0] ?? '').trim(), line: index + 1, heading, notRun });
    index = end;
  }
  return blocks;
}

/** A guide's text, by its path relative to the repository root. */
export function readGuide(guide) {
  return readFileSync(join(repoRoot, guide), 'utf8');
}

/**
 * The one block of `guide` under `heading` (the heading line as written, `## Quick start`) whose text
 * holds `marker`; throws naming what is missing, or when several blocks there hold it.
 * @param {string} guide
 * @param {string} heading
 * @param {string} marker
 */
export function readmeBlock(guide, heading, marker) {
  const blocks = fencedBlocks(readGuide(guide)).filter((block) => block.heading === heading);
  if (blocks.length === 0) throw new Error(`${guide} has no block under "${heading}"`);
  const found = blocks.filter((block) => block.text.includes(marker));
  if (found.length !== 1) throw new Error(`${guide}, "${heading}": ${found.length} blocks hold ${JSON.stringify(marker)}, expected one`);
  return found[0].text;
}

/**
 * The line of a block that starts with `start`, its trailing `# comment` removed; throws when there is none.
 * @param {string} block
 * @param {string} start
 */
export function lineOf(block, start) {
  const found = block.split('\n').find((line) => line.startsWith(start));
  if (found === undefined) throw new Error(`no line starting with ${JSON.stringify(start)} in:\n${block}`);
  return found.replace(/\s+#\s.*$/, '');
}

/** A block as a bash script: stop at the first failure, and `pnpm` is the pinned pnpm the suite runs (pnpm-command.mjs). */
function script(block) {
  return `set -euo pipefail\n${pnpmShellFunction()}\n${block}`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a colour
const colours = /\u001b\[[0-9;]*m/g;

/**
 * Runs a block in bash (from the repository root unless `cwd` says otherwise) to its end; resolves
 * with its output, rejects with it on a non-zero exit.
 * @param {string} block
 * @param {{ env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }} [options]
 * @returns {Promise<{ stdout: string; stderr: string }>}
 */
export function runBlock(block, { env = {}, cwd = repoRoot, timeoutMs = 180_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-c', script(block)],
      { cwd, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env }, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/**
 * Starts a block that keeps running (a service, a mock, a dev server) in bash in a process group of
 * its own, and resolves once its output (stdout and stderr, colours removed) matches `ready`: with
 * that match, the output so far, and `stop()`, which signals the whole group (SIGKILL if it has not
 * ended 15 s after SIGTERM) and waits for it. Rejects with the output when the block ends first or
 * does not get ready within `timeoutMs`.
 * @param {string} block
 * @param {{ ready: RegExp; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }} options
 */
export function startBlock(block, { ready, env = {}, cwd = repoRoot, timeoutMs = 180_000 }) {
  const child = spawn('bash', ['-c', script(block)], {
    cwd,
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  let exited = false;
  const closed = new Promise((resolve) => child.once('close', () => resolve(undefined)));
  child.once('exit', () => {
    exited = true;
  });
  async function stop() {
    if (!exited && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
    const kill = setTimeout(() => {
      if (child.pid !== undefined)
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
    }, 15_000);
    await closed;
    clearTimeout(kill);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`not ready within ${timeoutMs} ms (${ready}):\n${block}\n--- output ---\n${output}`)));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString('utf8').replace(colours, '');
      const match = ready.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ match, output: () => output, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void closed.then(() => {
      clearTimeout(timer);
      reject(new Error(`ended before it was ready (${ready}):\n${block}\n--- output ---\n${output}`));
    });
  });
}
