// Starts the real service (or the stateful mock, `entry`) as a child process with an in-memory PGlite
// database, on a free port: compiled (`pnpm build`, brought up to date first) unless `entry` names a
// TypeScript file (a scratch checkout's sources, run through tsx), and
// resolves once it answers GET /healthz (polled) or logs `{"msg":"listening","url":...}`, whichever
// comes first: the listening line is an info log and does not show at LOG_LEVEL=warn. Fails with the
// service's last output when it exits or does not come up in time.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/prism.mjs';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  keyFile: string;
  /** Default: a free port picked now. */
  port?: number;
  timeoutMs?: number;
  env?: Record<string, string>;
  /** The repository whose service to run. Default: this one (another is a scratch copy). */
  root?: string;
  /** The program to run, relative to `root`: the compiled service (default), the stateful mock's command, or a `.ts` source. */
  entry?: string;
  /** Its arguments (the stateful mock's `--port`, `--seed`...). */
  args?: string[];
}

/** The compiled service, and the stateful mock's command (what `pnpm mock:stateful` runs). */
export const compiledServiceEntry = 'packages/server/dist/main.js';
export const compiledStatefulMockEntry = 'packages/server/dist/mock-cli.js';

const builtRoots = new Set<string>();

/**
 * Brings the generated code and the build of `root` up to date, once per process: the global setups
 * of the test projects run before the run's own (which builds too), and they start services already.
 */
function ensureBuilt(root: string): void {
  if (builtRoots.has(root)) return;
  for (const script of ['scripts/generate.mjs', 'scripts/build.mjs'])
    execFileSync(process.execPath, [script], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  builtRoots.add(root);
}

function listeningUrl(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const entry: unknown = JSON.parse(line);
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { msg, url } = entry as { msg?: unknown; url?: unknown };
    return msg === 'listening' && typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A port nothing listens on right now (the kernel's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function startService({
  keyFile,
  port: askedPort,
  timeoutMs = 240_000,
  env = {},
  root = repoRoot,
  entry = compiledServiceEntry,
  args = [],
}: ServiceOptions): Promise<RunningService> {
  const port = askedPort ?? (await freePort());
  const typescript = entry.endsWith('.ts');
  if (!typescript) ensureBuilt(root);
  const child = spawn(process.execPath, [...(typescript ? ['--import', 'tsx'] : ['--enable-source-maps']), join(root, entry), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory:',
      DEV_KEY_FILE: keyFile,
      LOG_LEVEL: 'warn',
      // High limits: the suite is one API key making many calls; rate limits have their own tests.
      RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
      RATE_LIMIT_SEARCH_PER_HOUR: '1000000',
      RATE_LIMIT_EXPORT_PER_MINUTE: '1000000',
      RATE_LIMIT_EXPORT_PER_HOUR: '1000000',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
  });
  const recent: string[] = [];
  let exited = false;
  let loggedUrl: string | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        recent.push(line);
        if (recent.length > 40) recent.shift();
        loggedUrl ??= listeningUrl(line);
      }
    });
  }

  async function stop(): Promise<void> {
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(killer);
  }

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (loggedUrl) return { url: loggedUrl, stop };
    if (exited) break;
    if (await answersHealth(url)) return { url, stop };
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const reason = exited ? 'exited before it answered' : `did not answer GET /healthz within ${timeoutMs} ms`;
  await stop();
  throw new Error(`service: ${reason}\n--- last service output ---\n${recent.join('\n')}`);
}
