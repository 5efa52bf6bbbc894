// A TypeScript entry point run as its own Node process (through tsx's loader, so the process id is
// the server's own and its memory can be read), ready once it logs its "listening" line.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { processCpuMs } from './cpu-time.js';
import { closeIdleConnections } from './http-request.js';
import type { ServerShare } from './server-share.js';

const tsxLoader = import.meta.resolve('tsx');

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Peak resident set size so far (VmHWM), in MiB. */
  peakRssMiB(): Promise<number>;
  /** CPU milliseconds (user + system, all threads) the process has used so far. */
  cpuMs(): Promise<number>;
  /** Closes this process's idle connections to it, sends SIGTERM and waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Everything the process wrote to stderr and the non-JSON lines of stdout, for error reports. */
  output(): string;
}

export interface StartOptions {
  entry: string;
  env: Record<string, string>;
  cwd?: string;
  readyTimeoutMs?: number;
  /** Node options before the entry, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[];
  /** Lend a running process started exactly like this instead of starting one, and lend this one (server-share.ts). */
  share?: ServerShare;
}

/** The `url` of a JSON log line whose msg is "listening" (pino or plain console). */
function listeningUrl(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return parsed.msg === 'listening' && typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const borrowed = options.share?.borrow(options);
  if (borrowed !== undefined) return borrowed;
  const server = await spawnServer(options);
  return options.share?.offer(options, server) ?? server;
}

async function spawnServer(options: StartOptions): Promise<RunningServer> {
  // A TypeScript entry (another checkout's sources) through tsx; a compiled one with its source maps.
  const loader = options.entry.endsWith('.ts') ? ['--import', tsxLoader] : ['--enable-source-maps'];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.entry], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let captured = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.on('data', (chunk: Buffer) => {
    captured = (captured + chunk.toString('utf8')).slice(-20_000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a start that never got ready would load the machine under every later measurement.
      child.kill('SIGKILL');
      reject(new Error(`${options.entry} did not log "listening" in time:\n${captured}`));
    }, options.readyTimeoutMs ?? 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const found = listeningUrl(line);
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      } else if (!line.startsWith('{')) {
        captured = `${captured + line}\n`.slice(-20_000);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${options.entry} exited with ${code} before listening:\n${captured}`));
    });
  });
  return {
    url,
    process: child,
    async peakRssMiB() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      return kib === undefined ? Number.NaN : Number(kib) / 1024;
    },
    cpuMs: () => processCpuMs(child.pid),
    async stop() {
      closeIdleConnections(url);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    output: () => captured,
  };
}
