// The health check on both engines, and what a database outage looks like from outside: PostgreSQL
// is reached through a TCP proxy the test cuts and restores (the shared server itself never stops).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createPostgresDatabase, openTestDatabase, type ScratchPostgres } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { startTestService, token, type TestService } from './support/service.js';
import { startTcpProxy, targetOf, throughProxy, type TcpProxy } from '../support/tcp-proxy.js';

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

// Users are read with a real query, so that an outage reaches a handler as the database's own error.
const handlers = stubHandlers({
  listUsers: async (_request, context) => {
    await sql`select id from users limit 1`.execute(context.db.db);
    return { status: 200, body: { users: [] } };
  },
});

describe('health on PostgreSQL behind a proxy that can be cut', () => {
  let scratch: ScratchPostgres;
  let proxy: TcpProxy;
  let database: Database;
  let service: TestService;

  beforeAll(async () => {
    scratch = await createPostgresDatabase('http_health');
    proxy = await startTcpProxy(targetOf(scratch.url, 5432));
    database = await openDatabase({ url: throughProxy(scratch.url, proxy), poolSize: 2 });
    await migrate(database);
    service = await startTestService({ database, handlers });
  });
  afterAll(async () => {
    await service?.close();
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  const health = () => fetch(`${service.url}/healthz`);

  it('answers 200 ok without a token', async () => {
    const response = await health();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 unavailable with Retry-After while the database is cut, and 200 again once it is back', async () => {
    const bearer = await token();
    proxy.cut();
    try {
      const down = await health();
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await down.json()).toEqual({ status: 'unavailable' });

      // An operation that needs the database says so as the Error object, never as a 500.
      const users = await fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(users.status).toBe(503);
      expect(Number(users.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await users.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    } finally {
      proxy.restore();
    }
    expect(await waitFor(async () => (await health()).status === 200, 10_000)).toBe(true);
    const users = await fetch(`${service.url}/api/v1/users`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(users.status).toBe(200);
  });
});

describe('health on PGlite', () => {
  let database: Database;
  let service: TestService;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    service = await startTestService({ database, handlers });
  });
  afterAll(async () => {
    await service?.close();
    await database?.close();
  });

  it('answers 200 ok, then 503 once the database is closed', async () => {
    const up = await fetch(`${service.url}/healthz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ok' });

    await database.close();
    const down = await fetch(`${service.url}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable' });
  });
});
