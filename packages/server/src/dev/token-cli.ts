// `pnpm --silent token [--scope "invoices:read deliveries:write"] [--client ID] [--account N] [--ttl SECONDS]`
// prints one development access token on one line, so that `TOKEN=$(pnpm --silent token)` just works.
import { parseArgs } from 'node:util';
import { allScopes, mintDevToken, type DevTokenOptions } from './token.js';

const usage = `Usage: pnpm --silent token [--scope "invoices:read deliveries:write"] [--client ID] [--account N] [--ttl SECONDS]
Defaults: every scope (${allScopes.join(' ')}), client 'dev', account 1, 3600 seconds.
A negative --ttl prints a token that expired that many seconds ago.`;

class UsageError extends Error {}

/** `--ttl -60` means `--ttl=-60`: parseArgs alone would take `-60` for an option and refuse it. */
function joinNegativeValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const next = argv[index + 1];
    if (argument.startsWith('--') && !argument.includes('=') && next !== undefined && /^-\d+$/.test(next)) {
      joined.push(`${argument}=${next}`);
      index += 1;
    } else {
      joined.push(argument);
    }
  }
  return joined;
}

function parseOptions(argv: string[]): DevTokenOptions | 'help' {
  const { values } = parseArgs({
    args: joinNegativeValues(argv),
    options: {
      scope: { type: 'string' },
      client: { type: 'string' },
      account: { type: 'string' },
      ttl: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true) return 'help';

  const options: DevTokenOptions = {};
  if (values.scope !== undefined) {
    const scopes = values.scope.split(/\s+/).filter((scope) => scope !== '');
    const unknown = scopes.filter((scope) => !allScopes.includes(scope));
    if (unknown.length > 0) throw new UsageError(`Unknown scope: ${unknown.join(', ')}. Known: ${allScopes.join(' ')}.`);
    options.scopes = scopes;
  }
  if (values.client !== undefined) {
    if (values.client.trim() === '') throw new UsageError('--client must not be empty.');
    options.clientId = values.client;
  }
  if (values.account !== undefined) {
    if (!/^\d+$/.test(values.account) || Number(values.account) < 1) throw new UsageError('--account must be a positive integer.');
    options.accountId = Number(values.account);
  }
  if (values.ttl !== undefined) {
    if (!/^-?\d+$/.test(values.ttl)) throw new UsageError('--ttl must be a whole number of seconds.');
    options.ttlSeconds = Number(values.ttl);
  }
  return options;
}

async function main(): Promise<void> {
  let options: DevTokenOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stdout.write(`${usage}\n`);
    return;
  }
  process.stdout.write(`${await mintDevToken(options)}\n`);
}

await main();
