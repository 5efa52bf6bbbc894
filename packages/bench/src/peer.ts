// The hand-wired peer (peer-server.ts) started as its own process, like the service: the same
// database, the same development key, and the same raised rate limits.
import { fileURLToPath } from 'node:url';
import { publishedSpecPath } from '@invoice-api/contract';
import { startServer, type RunningServer } from './child-process.js';
import { DEV_TOKEN_AUDIENCE, DEV_TOKEN_ISSUER } from './server-modules.js';
import { raisedRateLimits } from './service.js';

const peerEntry = fileURLToPath(new URL('./peer-server.ts', import.meta.url));

export interface PeerOptions {
  databaseUrl: string;
  devKeyFile: string;
  /** Node options, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[];
}

export function startPeer(options: PeerOptions): Promise<RunningServer> {
  return startServer({
    entry: peerEntry,
    ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
    env: {
      DATABASE_URL: options.databaseUrl,
      SPEC_PATH: publishedSpecPath,
      DEV_KEY_FILE: options.devKeyFile,
      JWT_ISSUER: DEV_TOKEN_ISSUER,
      JWT_AUDIENCE: DEV_TOKEN_AUDIENCE,
      ...raisedRateLimits,
    },
  });
}
