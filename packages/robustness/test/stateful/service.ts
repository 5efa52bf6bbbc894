// The service under test, in this process: the real app (every middleware, the real handlers or a
// broken variant of them) on a real database of either engine, listening on a loopback port. In
// process rather than spawned, so that a planted bug can replace one handler or one module of it.
// Each sequence of the run gets two fresh accounts (the one under test and "another account"), so
// the model of a sequence starts empty and sequences never see each other's rows.
import type { HandlerMap } from '@invoice-api/contract';
import { createHandlers } from '../../../server/src/operations/index.js';
import type { RequestContext } from '../../../server/src/context.js';
import { openTestDatabase, type Engine, type TestDatabase } from '../../../server/test/support/databases.js';
import { createAccount } from '../../../server/test/support/fixtures.js';
import { startTestService, token, type TestService } from '../../../server/test/http/support/service.js';
import { raisedRateLimits } from '../support/service.js';
import type { CompanyClientFacts } from './model.js';

export type { Engine };

export interface StatefulService {
  engine: Engine;
  url: string;
  database: TestDatabase;
  close(): Promise<void>;
}

export async function startStatefulService(engine: Engine, handlers: HandlerMap<RequestContext> = createHandlers()): Promise<StatefulService> {
  const database = await openTestDatabase(engine, { name: 'stateful' });
  let service: TestService;
  try {
    service = await startTestService({ database, handlers, env: raisedRateLimits });
  } catch (error) {
    await database.dispose();
    throw error;
  }
  return {
    engine,
    url: service.url,
    database,
    async close() {
      await service.close();
      await database.dispose();
    },
  };
}

export interface SequenceAccounts {
  accountId: number;
  currency: string;
  clients: CompanyClientFacts[];
  foreignClientId: number;
  tokens: { mine: string; theirs: string };
}

/** Two new accounts: the one the sequence works in (two company clients) and another one. */
export async function freshAccounts(database: TestDatabase): Promise<SequenceAccounts> {
  const mine = await createAccount(database, { clients: 2, currency: 'CHF' });
  const theirs = await createAccount(database, { clients: 1, currency: 'CHF' });
  const clients = await database.db.selectFrom('company_clients').select(['id', 'name']).where('account_id', '=', mine.accountId).orderBy('id').execute();
  const [mineToken, theirToken] = await Promise.all([token({ accountId: mine.accountId }), token({ accountId: theirs.accountId })]);
  return {
    accountId: mine.accountId,
    currency: 'CHF',
    clients: clients.map((client) => ({ id: Number(client.id), name: client.name })),
    foreignClientId: theirs.clientIds[0]!,
    tokens: { mine: mineToken, theirs: theirToken },
  };
}
