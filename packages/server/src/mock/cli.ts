// `pnpm mock:stateful [--port N] [--host H] [--seed N] [--invoices N] [--deliveries N]`: the service on
// an in-memory database with a deterministic fixture, for frontend flows (a create found by the next
// search, an issued delivery that stays issued). Prints the address, a development token and
// ready-to-paste calls; Ctrl-C stops it. Exit codes: 2 for a bad argument or setting, 1 for a failed start.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { mintDevToken } from '../dev/token.js';
import { exitOnCrash } from '../runtime/crash.js';
import { isEntryPoint } from '../runtime/entry-point.js';
import { createLogger, flushLogsBeforeExit } from '../runtime/logger.js';
import { describeStartupFailure } from '../runtime/startup-failure.js';
import { resetPath } from './mock-routes.js';
import { defaultFixture, startStatefulMock, type FixtureOptions, type RunningStatefulMock } from './stateful-mock.js';

/** The Prism mock's port too: a frontend pointed at the mock switches by starting the other one. */
export const defaultMockPort = 4010;
/** Long enough for a working day; `pnpm --silent token` mints others (scopes, account, expiry). */
const printedTokenTtlSeconds = 12 * 3600;

export const usage = `Usage: pnpm mock:stateful [--port N] [--host ADDRESS] [--seed N] [--invoices N] [--deliveries N]
  --port        port to listen on (default PORT, else ${defaultMockPort}; 0 picks a free one)
  --host        address to listen on (default HOST, else 127.0.0.1: loopback only)
  --seed        the fixture's random seed (default ${defaultFixture.seed}); the same seed and sizes give the same data
  --invoices    invoices in the fixture, accounts 1 and 2 together (default ${defaultFixture.invoices})
  --deliveries  deliveries in the fixture (default ${defaultFixture.deliveries})
POST ${resetPath} restores the fixture. Tokens: the development key (DEV_KEY_FILE), as for the service.`;

export class UsageError extends Error {}

export interface MockArguments {
  port: number | undefined;
  host: string | undefined;
  fixture: FixtureOptions;
}

function wholeNumber(name: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got '${raw}'.`);
  return Number(raw);
}

/** Reads the command line; `'help'` for --help. Throws UsageError naming the bad argument. */
export function parseMockArguments(argv: readonly string[]): MockArguments | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      // `pnpm mock:stateful -- --seed 7` passes the `--` on.
      args: argv.filter((argument) => argument !== '--'),
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        invoices: { type: 'string' },
        deliveries: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return 'help';
  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const host = text('host');
  if (host !== undefined && host.trim() === '') throw new UsageError('--host must not be empty.');
  return {
    port: wholeNumber('port', text('port'), 65_535),
    host,
    fixture: {
      seed: wholeNumber('seed', text('seed'), 4_294_967_295) ?? defaultFixture.seed,
      invoices: wholeNumber('invoices', text('invoices'), 2_000_000) ?? defaultFixture.invoices,
      deliveries: wholeNumber('deliveries', text('deliveries'), 100_000) ?? defaultFixture.deliveries,
    },
  };
}

/** The service's settings with the mock's address: the flags first, then HOST and PORT, then loopback:4010. */
export function configFor(args: MockArguments, env: NodeJS.ProcessEnv = process.env): Config {
  const config = loadConfig(env);
  const portSet = env.PORT !== undefined && env.PORT.trim() !== '';
  return { ...config, host: args.host ?? config.host, port: args.port ?? (portSet ? config.port : defaultMockPort) };
}

/** What a person needs to start calling: the address, the fixture, a token and calls to paste. */
export function banner(mock: RunningStatefulMock, token: string | undefined): string {
  const { fixture, rows, url } = mock;
  const lines = [
    `stateful mock: the service's handlers on an in-memory database at ${url} (Ctrl-C stops it)`,
    `fixture: seed ${fixture.seed}, ${rows.invoices} invoices, ${rows.deliveries} deliveries, ${rows.company_clients} company clients, accounts 1 and 2; the same on every start`,
    `reference: ${url}/docs   spec: ${url}/openapi.json`,
  ];
  if (token === undefined) {
    lines.push('tokens: JWT_ISSUER/JWT_AUDIENCE/JWT_JWKS_URL are set, so tokens come from that issuer');
  } else {
    lines.push(`token (account 1, every scope, valid ${printedTokenTtlSeconds / 3600} h; others: pnpm --silent token --help):`, `  export TOKEN=${token}`);
  }
  lines.push(
    'try:',
    `  curl -s -X POST ${url}/api/v1/invoices/search -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"limit": 3}'`,
    `  curl -s -X POST ${url}${resetPath}    # back to the fixture (also between tests)`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  let args: MockArguments;
  let config: Config;
  try {
    const parsed = parseMockArguments(process.argv.slice(2));
    if (parsed === 'help') {
      process.stdout.write(`${usage}\n`);
      return;
    }
    args = parsed;
    config = configFor(args);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
    process.stderr.write(`mock:stateful: ${error.message}\n${error instanceof UsageError ? `${usage}\n` : ''}`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  // Logs are buffered (runtime/logger.ts): a crash or a stop writes out the last lines before exiting.
  exitOnCrash(logger);
  let mock: RunningStatefulMock;
  try {
    mock = await startStatefulMock({ config, logger, fixture: args.fixture });
  } catch (error) {
    const line = describeStartupFailure(error, config) ?? (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(`Cannot start: ${line}\n`);
    process.exit(1);
  }
  const token = config.auth.mode === 'dev' ? await mintDevToken({ keyFile: config.auth.keyFile, ttlSeconds: printedTokenTtlSeconds }) : undefined;
  process.stdout.write(banner(mock, token));

  const shutdown = (): void => {
    const exit = (code: number): never => {
      flushLogsBeforeExit(logger);
      process.exit(code);
    };
    mock.stop().then(
      () => exit(0),
      () => exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (isEntryPoint(import.meta.url)) await main();
