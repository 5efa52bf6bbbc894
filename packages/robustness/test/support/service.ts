// The service as an operator runs it: the compiled packages/server/src/main.ts (`pnpm build`, brought
// up to date by the run's global setup) in its own process, configured by
// environment, ready when it logs {"msg":"listening","url":...}. Rate limits are raised (these tests
// measure behaviour, not the limiter) unless a test sets them.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serviceEntry = fileURLToPath(new URL('../../../server/dist/main.js', import.meta.url));

const scratchDirectory = mkdtempSync(join(tmpdir(), 'invoice-robustness-'));
/** One development key per test process, shared by the services it starts and the tokens it mints. */
export const devKeyFile = join(scratchDirectory, 'dev-key.json');
let logCounter = 0;

export const raisedRateLimits = {
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_SEARCH_PER_HOUR: '1000000',
  RATE_LIMIT_EXPORT_PER_MINUTE: '1000000',
  RATE_LIMIT_EXPORT_PER_HOUR: '1000000',
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

/** A service process just spawned: it may go on to listen, or exit first (a refusal to start). */
export interface SpawnedService {
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string | null>;
  /** Log lines (stdout and stderr) so far. */
  logs(): string[];
}

/**
 * Spawns the service with its output going to a file, not a pipe: a pipe that the (busy) test process
 * drains late would block the service's synchronous log writes and stall its event loop, which would
 * make every timing in these tests a measure of the harness instead of the service.
 */
export function spawnService(env: Record<string, string>): SpawnedService {
  logCounter += 1;
  const logFile = join(scratchDirectory, `service-${logCounter}.log`);
  const output = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--enable-source-maps', serviceEntry], {
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
    stdio: ['ignore', output, output],
  });
  closeSync(output);
  const logs = (): string[] =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, exited, logs };
}

/** Spawns the service and resolves once it listens (a PGlite directory reopened on a busy machine may need `startTimeoutMs`). */
export async function startService(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<ServiceProcess> {
  const { child, exited, logs } = spawnService(env);
  let exitCode: number | string | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + (options.startTimeoutMs ?? 45_000);
  let url: string | undefined;
  while (url === undefined) {
    if (exitCode !== undefined) throw new Error(`the service exited (${exitCode}) before listening:\n${logs().join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start in time:\n${logs().join('\n')}`);
    }
    for (const line of logs()) {
      const parsed = parseJson(line);
      if (parsed?.['msg'] === 'listening' && typeof parsed['url'] === 'string') url = parsed['url'];
    }
    if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    exited,
    logs,
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
