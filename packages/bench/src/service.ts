// The service under test, started the way an operator starts it (packages/server/src/main.ts compiled
// by `pnpm build`, in its own process, configured by environment), with the rate limits raised so the benchmark measures
// capacity instead of the limiter.
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './child-process.js';
import type { ServerShare } from './server-share.js';

export const serviceEntry = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));

/** Far above anything a run can send: the limiter is still in the path, it just never refuses. */
export const raisedRateLimits = {
  RATE_LIMIT_SEARCH_PER_MINUTE: '100000000',
  RATE_LIMIT_SEARCH_PER_HOUR: '100000000',
  RATE_LIMIT_PER_MINUTE: '100000000',
  RATE_LIMIT_EXPORT_PER_MINUTE: '100000000',
  RATE_LIMIT_EXPORT_PER_HOUR: '100000000',
} as const;

export interface ServiceOptions {
  databaseUrl: string;
  devKeyFile: string;
  /** Extra settings, e.g. RESPONSE_VALIDATION=off for the validation-overhead run. */
  env?: Record<string, string>;
  /** Node options, e.g. `--cpu-prof` (profile-run.ts). */
  nodeArgs?: readonly string[];
  /** Another checkout's main.ts (compare-run.ts); default this tree's. */
  entry?: string;
  /** Keep the Prometheus metrics (METRICS_PORT on a free port), as the hand-wired peer keeps its histogram. */
  metrics?: boolean;
  /** The smoke run's shared processes (server-share.ts). */
  share?: ServerShare;
}

/** A TCP port nothing listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startService(options: ServiceOptions): Promise<RunningServer> {
  const metrics: Record<string, string> = options.metrics === true ? { METRICS_PORT: String(await freePort()) } : {};
  return startServer({
    entry: options.entry ?? serviceEntry,
    ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
    ...(options.share === undefined ? {} : { share: options.share }),
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      DEV_KEY_FILE: options.devKeyFile,
      REDIS_URL: '',
      ...raisedRateLimits,
      ...metrics,
      ...options.env,
    },
  });
}
