// Starts the real service as a child process on a free port with an in-memory PGlite database, and
// resolves once it logs `{"msg":"listening","url":...}`. Fails with the service's last output when it
// exits or stays silent.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/prism.mjs';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  keyFile: string;
  timeoutMs?: number;
  env?: Record<string, string>;
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

export function startService({ keyFile, timeoutMs = 120_000, env = {} }: ServiceOptions): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'packages/server/src/main.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory:',
      DEV_KEY_FILE: keyFile,
      LOG_LEVEL: 'warn',
      // High limits: the suite is one API key making many calls; rate limits have their own tests.
      RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
      RATE_LIMIT_SEARCH_PER_HOUR: '1000000',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
  });
  const recent: string[] = [];
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));

  async function stop(): Promise<void> {
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(killer);
  }

  return new Promise<RunningService>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`service: ${reason}\n--- last service output ---\n${recent.join('\n')}`)));
    };
    const timer = setTimeout(() => fail(`no "listening" log line within ${timeoutMs} ms`), timeoutMs);
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
          const url = listeningUrl(line);
          if (url) {
            clearTimeout(timer);
            resolve({ url, stop });
          }
        }
      });
    }
    void exit.then(() => fail('exited before listening'));
  });
}
