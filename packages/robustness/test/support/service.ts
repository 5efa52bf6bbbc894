// The service as an operator runs it: packages/server/src/main.ts in its own process, configured by
// environment, ready when it logs {"msg":"listening","url":...}. Rate limits are raised (these tests
// measure behaviour, not the limiter) unless a test sets them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const serviceEntry = fileURLToPath(new URL('../../../server/src/main.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

/** One development key per test process, shared by the services it starts and the tokens it mints. */
export const devKeyFile = join(mkdtempSync(join(tmpdir(), 'invoice-robustness-')), 'dev-key.json');

export const raisedRateLimits = {
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_SEARCH_PER_HOUR: '1000000',
  RATE_LIMIT_PER_MINUTE: '1000000',
};

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string | null>;
  /** Log lines (stdout and stderr) so far, for diagnostics and for checking what was logged. */
  logs(): string[];
  stop(): Promise<void>;
}

export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, serviceEntry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DEV_KEY_FILE: devKeyFile,
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      ...raisedRateLimits,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start in time:\n${lines.join('\n')}`)), 45_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const parsed = parseJson(line);
      if (parsed?.['msg'] === 'listening' && typeof parsed['url'] === 'string') {
        clearTimeout(timer);
        resolve(parsed['url']);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before listening:\n${lines.join('\n')}`));
    });
  });
  return {
    url,
    child,
    exited,
    logs: () => [...lines],
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function parseJson(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
