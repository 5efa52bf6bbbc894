import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { databaseHookTimeoutMs, pgliteTemplate } from '../support/databases.js';

describe('PGlite dialect', () => {
  let directory: string;
  let database: Database;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pglite-dialect-'));
    // Starting from the cached fresh cluster, not initdb: it lands in the directory like an initdb would.
    database = await openDatabase({ dataDir: directory, pgliteDataDirDump: await pgliteTemplate() });
    await migrate(database);
    await sql`create table counters (id int primary key, value int not null)`.execute(database.db);
    await sql`insert into counters values (1, 0)`.execute(database.db);
  }, databaseHookTimeoutMs);

  afterAll(async () => {
    await database.close();
    await rm(directory, { recursive: true, force: true });
  }, databaseHookTimeoutMs);

  it('gives a transaction the one session to itself: racing read-modify-writes lose nothing', async () => {
    // Without the session lock, a query of one transaction would run inside another's BEGIN...COMMIT.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, 1));
          await sql`update counters set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
        }),
      ),
    );
    const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(database.db);
    expect(rows[0]!.value).toBe(20);
  });

  it('rolls a failed transaction back and frees the session for the next query', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update counters set value = -1 where id = 1`.execute(trx);
        await sql`select * from no_such_table`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '42P01' });
    const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(database.db);
    expect(rows[0]!.value).toBe(20);
  });

  it('reports affected rows', async () => {
    const result = await database.db.updateTable('accounts').set({ name: 'x' }).where('id', '<', 0).executeTakeFirst();
    expect(result.numUpdatedRows).toBe(0n);
  });

  it(
    'keeps its data in the directory across a reopen, already migrated',
    async () => {
      await database.close();
      database = await openDatabase({ dataDir: directory });
      const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(database.db);
      expect(rows[0]!.value).toBe(20);
      const again = await migrate(database);
      expect(again.results).toEqual([]);
    },
    databaseHookTimeoutMs,
  );
});

describe('openDatabase', () => {
  it('refuses an unknown URL scheme without echoing the URL', async () => {
    const failure = await openDatabase({ url: 'mysql://user:secret@host/db' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toContain('secret');
  });
});
