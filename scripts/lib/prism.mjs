// Starts Prism (mock or validation proxy) over the bundled spec as a child process, on 127.0.0.1,
// and resolves once it says where it listens. Shared by `pnpm mock` and the contract suite's harness.
// A mock of a spec with a byte answer (a PDF...), which Prism cannot send, gets a small front
// (prism-front.mjs) where the mock is expected, with Prism behind it on a free port; a spec without
// one (the product's today) gets Prism alone, as before.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { byteAnswers, describeByteAnswers, needsFront, startFront } from './prism-front.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const bundledSpec = join(repoRoot, 'packages/contract/generated/openapi.yaml');

const prismBin = join(repoRoot, 'node_modules/@stoplight/prism-cli/dist/index.js');
const loopbackOnly = join(dirname(fileURLToPath(import.meta.url)), 'loopback-only.cjs');

// Prism prints e.g. "Prism is listening on http://127.0.0.1:41851" (port 0 picks a free port).
const listeningLine = /Prism is listening on (http:\/\/[^\s]+)/;

/**
 * @param {object} options
 * @param {'mock' | 'proxy'} options.mode
 * @param {string} [options.upstream]  the service's URL, for the proxy
 * @param {boolean} [options.dynamic]  generate answers from the schemas instead of the examples
 * @param {number} [options.port]      0 (default) picks a free port
 * @param {string} [options.host]
 * @param {string} [options.spec]
 * @param {number} [options.timeoutMs]
 * @param {(line: string) => void} [options.onOutput]  every output line, e.g. to print it
 */
export async function startPrism(options) {
  const { mode, spec = bundledSpec, onOutput } = options;
  if (!existsSync(spec)) throw new Error(`prism: ${spec} is missing; run \`node scripts/generate.mjs\` first`);
  const operations = mode === 'mock' ? frontOperations(spec, onOutput) : [];
  if (!needsFront(operations)) return startPrismProcess(options);
  // Prism behind, on a free loopback port; the front where the mock was asked for.
  const prism = await startPrismProcess({ ...options, port: 0, host: '127.0.0.1' });
  try {
    const front = await startFront({
      operations,
      upstream: prism.url,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      dynamic: options.dynamic === true,
    });
    onOutput?.(
      `mock front: ${front.url} answers the byte answers Prism cannot send with a small valid file (${describeByteAnswers(operations)}); everything else is Prism's, at ${prism.url}`,
    );
    return {
      url: front.url,
      pid: prism.pid,
      exited: prism.exited,
      async stop() {
        await Promise.all([front.close(), prism.stop()]);
      },
    };
  } catch (error) {
    await prism.stop();
    throw error;
  }
}

/** How much older than its YAML a JSON bundle may be and still be the same run's (it is written first). */
const sameRunMs = 60_000;

/**
 * The spec as data. The generator writes each bundle as JSON and then YAML (openapi.json and .yaml,
 * openapi.published.json and .yaml): the JSON of the same run is read instead, since parsing the
 * product's YAML costs seconds on a busy machine where JSON costs milliseconds, and every start of
 * the mock would pay it. A YAML edited after its run, or without a JSON beside it, is parsed.
 */
function readSpec(spec) {
  const json = spec.replace(/\.ya?ml$/, '.json');
  if (json !== spec && existsSync(json) && statSync(json).mtimeMs >= statSync(spec).mtimeMs - sameRunMs) return JSON.parse(readFileSync(json, 'utf8'));
  return parseYaml(readFileSync(spec, 'utf8'));
}

/** The spec's operations with their byte answers; none (Prism alone) for a spec whose bodies the kit cannot read. */
function frontOperations(spec, onOutput) {
  try {
    return byteAnswers(readSpec(spec));
  } catch (error) {
    onOutput?.(`mock front: not started, the spec's bodies could not be read (${error instanceof Error ? error.message : String(error)})`);
    return [];
  }
}

function startPrismProcess({ mode, upstream, dynamic = false, port = 0, host = '127.0.0.1', spec = bundledSpec, timeoutMs = 120_000, onOutput }) {
  if (mode === 'proxy' && !upstream) throw new Error('prism: the proxy needs an upstream URL');
  // Dynamic answers keep lists short through the spec's own root `x-json-schema-faker` options.
  const args = [prismBin, mode, spec, ...(mode === 'proxy' ? [upstream] : []), '--host', host, '--port', String(port)];
  if (dynamic) args.push('--dynamic');
  const child = spawn(process.execPath, ['--require', loopbackOnly, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0' },
  });
  const recent = [];
  let exited = false;
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );

  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`prism ${mode} did not start within ${timeoutMs} ms`)), timeoutMs);
    function fail(error) {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`${error.message}\n--- last prism output ---\n${recent.join('\n')}`));
    }
    function onLine(line) {
      recent.push(line);
      if (recent.length > 40) recent.shift();
      onOutput?.(line);
      const match = listeningLine.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    }
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        lines.forEach(onLine);
      });
    }
    exit.then(({ code, signal }) => fail(new Error(`prism ${mode} exited (code ${code}, signal ${signal}) before listening`)));
  });

  let stopping = false;
  // A Prism that dies after it started makes every later call fail with ECONNREFUSED; say why once.
  exit.then(({ code, signal }) => {
    if (!stopping)
      process.stderr.write(`prism ${mode} exited unexpectedly (code ${code}, signal ${signal})\n--- last prism output ---\n${recent.join('\n')}\n`);
  });

  async function stop() {
    stopping = true;
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exit;
    clearTimeout(killer);
  }

  return ready.then(
    (url) => ({ url, pid: child.pid, stop, exited: exit }),
    async (error) => {
      await stop();
      throw error;
    },
  );
}
