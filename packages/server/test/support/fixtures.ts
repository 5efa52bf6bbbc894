// Small, explicit rows for tests that need a known starting point rather than the demo seed.
import { pino, type Logger } from 'pino';
import type { Caller, RequestContext } from '../../src/context.js';
import type { Database } from '../../src/db/database.js';

export interface TestAccount {
  accountId: number;
  /** Company clients of this account, in creation order. */
  clientIds: number[];
  userIds: number[];
}

let accountCounter = 0;

/** Creates an account with `clients` company clients and two users. */
export async function createAccount(database: Database, options: { clients?: number; currency?: string } = {}): Promise<TestAccount> {
  accountCounter += 1;
  const account = await database.db
    .insertInto('accounts')
    .values({ name: `Test account ${accountCounter}`, default_currency: options.currency ?? 'CHF' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const clients = await database.db
    .insertInto('company_clients')
    .values(
      Array.from({ length: options.clients ?? 2 }, (_, index) => ({
        account_id: account.id,
        name: `Client ${accountCounter}-${index + 1}`,
        email: `client${index + 1}@account${accountCounter}.example`,
        country: 'CH',
      })),
    )
    .returning('id')
    .execute();
  const users = await database.db
    .insertInto('users')
    .values([
      { account_id: account.id, name: `Admin ${accountCounter}`, email: `admin@account${accountCounter}.example`, role: 'admin' },
      { account_id: account.id, name: `Viewer ${accountCounter}`, email: `viewer@account${accountCounter}.example`, role: 'viewer' },
    ])
    .returning('id')
    .execute();
  return { accountId: account.id, clientIds: clients.map((row) => row.id), userIds: users.map((row) => row.id) };
}

/** A real logger at level silent: handlers log through the context, tests do not read it. */
const silentLogger: Logger = pino({ level: 'silent' });

const allScopes = ['invoices:read', 'invoices:write', 'deliveries:read', 'deliveries:write', 'users:read', 'clients:read'];

/** The context a handler receives for a caller of `accountId` (all scopes: scopes are the HTTP layer's). */
export function contextFor(database: Database, accountId: number | undefined): RequestContext {
  const caller: Caller | undefined = accountId === undefined ? undefined : { accountId, apiKey: `test-key-${accountId}`, scopes: new Set(allScopes) };
  return { caller, db: database, log: silentLogger, requestId: `test-${accountId ?? 'anonymous'}` };
}
