// One PostgreSQL database (migrated, demo-seeded) and one service process per test file.
import { afterAll, beforeAll } from 'vitest';
import { createTestPostgres, type TestPostgres } from './postgres.js';
import { startService, type ServiceProcess } from './service.js';

export interface ServiceFixture {
  postgres: TestPostgres;
  service: ServiceProcess;
  /** A client of account 1 (for invoices and deliveries of the demo account). */
  clientId: number;
  /** A client of account 2, which account 1 must never see. */
  otherAccountClientId: number;
}

export function useServiceOnPostgres(prefix: string, env: Record<string, string> = {}): () => ServiceFixture {
  let fixture: ServiceFixture | undefined;
  beforeAll(async () => {
    const postgres = await createTestPostgres(prefix);
    try {
      const service = await startService({ DATABASE_URL: postgres.url, ...env });
      const [mine] = await postgres.query<{ id: string }>('select min(id) as id from company_clients where account_id = 1');
      const [theirs] = await postgres.query<{ id: string }>('select min(id) as id from company_clients where account_id = 2');
      fixture = { postgres, service, clientId: Number(mine?.id), otherAccountClientId: Number(theirs?.id) };
    } catch (error) {
      await postgres.drop();
      throw error;
    }
  });
  afterAll(async () => {
    await fixture?.service.stop();
    await fixture?.postgres.drop();
  });
  return () => {
    if (fixture === undefined) throw new Error('the fixture starts in beforeAll');
    return fixture;
  };
}
