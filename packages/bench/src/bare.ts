// The bare handler (bare-server.ts) started as its own process, on node:http or mounted on express.
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './child-process.js';
import type { DutyRung } from './bare-duties.js';
import type { ServerShare } from './server-share.js';

const bareEntry = fileURLToPath(new URL('./bare-server.ts', import.meta.url));

/** node:http alone, or the same handlers as the routes of an express 5 app with no middleware. */
export type BareFramework = 'node:http' | 'express';

export interface BareOptions {
  databaseUrl: string;
  /** Connections of its pg pool: the load generator's, so that neither queues for the other. */
  poolSize: number;
  framework?: BareFramework;
  /** express only: a rung of the service's duties in front of the handler (bare-duties.ts). */
  duties?: DutyRung;
  /** With `duties`: the service's settings the duties read (its development key, its raised rate limits). */
  env?: Record<string, string>;
  /** Node options, e.g. `--cpu-prof` (profile-run.ts). */
  nodeArgs?: readonly string[];
  /** The smoke run's shared processes (server-share.ts). */
  share?: ServerShare;
}

export function startBare(options: BareOptions): Promise<RunningServer> {
  return startServer({
    entry: bareEntry,
    ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
    ...(options.share === undefined ? {} : { share: options.share }),
    env: {
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      POOL_SIZE: String(options.poolSize),
      BARE_FRAMEWORK: options.framework ?? 'node:http',
      ...(options.duties === undefined ? {} : { BARE_DUTIES: options.duties }),
    },
  });
}
