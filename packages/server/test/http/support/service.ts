// Starts the real app on a free loopback port (PORT=0) for a test file, with its own key file, and
// mints tokens signed with that key. Everything goes through real HTTP with fetch.
import { Writable } from 'node:stream';
import type { HandlerMap } from '@invoice-api/contract';
import { pino, type Logger } from 'pino';
import { createApp } from '../../../src/app.js';
import { loadConfig, type Config } from '../../../src/config.js';
import type { RequestContext } from '../../../src/context.js';
import type { Database } from '../../../src/db/database.js';
import type { RateLimitStoreFactory } from '../../../src/http/rate-limit.js';
import { startServer, type RunningServer } from '../../../src/runtime/server.js';
import { processKeyFile } from '../../support/dev-key.js';
import { stubHandlers } from './handlers.js';

// The key and its tokens are dev-key.ts's, shared with the files whose service runs in another process.
export { processKeyFile as testKeyFile, signedToken as token } from '../../support/dev-key.js';

export interface TestServiceOptions {
  database: Database;
  handlers?: HandlerMap<RequestContext>;
  /** Environment variables on top of PORT=0, the test key file and silent logs. */
  env?: Record<string, string>;
  rateLimitStore?: RateLimitStoreFactory;
  logger?: Logger;
  /** Compile the validators before listening, as the service does (off by default: it costs seconds of CPU). */
  warmUp?: boolean;
}

export interface TestService {
  url: string;
  config: Config;
  server: RunningServer;
  close(): Promise<void>;
}

export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const config = loadConfig({ PORT: '0', DEV_KEY_FILE: processKeyFile, LOG_LEVEL: 'silent', ...options.env });
  const app = await createApp({
    config,
    database: options.database,
    handlers: options.handlers ?? stubHandlers(),
    logger: options.logger ?? pino({ level: 'silent' }),
    warmUp: options.warmUp ?? false,
    ...(options.rateLimitStore === undefined ? {} : { rateLimitStore: options.rateLimitStore }),
  });
  const server = await startServer(app, config);
  return { url: server.url, config, server, close: () => server.close(1_000) };
}

/** A logger whose JSON lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines: () => lines };
}
