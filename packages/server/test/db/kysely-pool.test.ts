// The pool Kysely is given on PostgreSQL (kysely-pool.ts): one client wrapper per pooled connection,
// and results that do not outlive the young generation's collections.
import { GCProfiler } from 'node:v8';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kyselyPool } from '../../src/db/kysely-pool.js';
import { StatementNames } from '../../src/db/prepared-statements.js';
import { createPostgresDatabase, databaseHookTimeoutMs, type ScratchPostgres } from '../support/databases.js';

describe('the pool Kysely is given on PostgreSQL', () => {
  let scratch: ScratchPostgres;

  beforeAll(async () => {
    scratch = await createPostgresDatabase('db_kysely_pool');
  }, databaseHookTimeoutMs);

  afterAll(async () => {
    await scratch?.drop();
  }, databaseHookTimeoutMs);

  /** Kysely on a pool of `max` connections through kyselyPool, counting the connection objects Kysely builds. */
  function open(max: number) {
    const pool = new pg.Pool({ connectionString: scratch.url, max });
    // pool.end() resolves before its connections have closed: the scratch database's drop may then
    // end one, whose client emits 'error' (as database.ts's pool, these listen).
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const counted = { connectionObjects: 0 };
    const db = new Kysely<Record<string, never>>({
      dialect: new PostgresDialect({
        pool: kyselyPool(pool, new StatementNames(10)),
        onCreateConnection: async () => {
          counted.connectionObjects += 1;
        },
      }),
    });
    return { pool, db, counted };
  }

  it('hands Kysely the same client for a connection at every checkout, so it builds one connection object per connection', async () => {
    const { pool, db, counted } = open(1);
    try {
      for (let query = 0; query < 5; query += 1) {
        const { rows } = await sql<{ n: number }>`select ${query}::int as n`.execute(db);
        expect(rows).toEqual([{ n: query }]);
      }
      expect(pool.totalCount).toBe(1);
      expect(counted.connectionObjects).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it('rejects with the database error, and the connection serves the next query', async () => {
    const { db } = open(1);
    try {
      await expect(sql`select 1/0`.execute(db)).rejects.toThrow('division by zero');
      const { rows } = await sql<{ n: number }>`select ${2}::int as n`.execute(db);
      expect(rows).toEqual([{ n: 2 }]);
    } finally {
      await db.destroy();
    }
  });

  it("leaves each result's rows to the young generation: what its collections promote stays far below the rows read", async () => {
    // A search page's worth of rows per query: strings and timestamps, as the search reads them.
    // With pg's promise form of client.query (what Kysely calls), every query's rows were promoted
    // to the old generation: about as many bytes promoted as the rows take.
    const { db } = open(10);
    const page = (offset: number) =>
      sql<{ id: number; a: string; b: string; at: Date }>`select g + ${offset}::int as id, md5(g::text) as a, repeat(md5((g + 1)::text), 4) as b,
        now() + g * interval '1 second' as at from generate_series(1, 50) as g`.execute(db);
    // Rows counted, not asserted one query at a time: an assertion in the loop would keep its
    // subject for the test's report, and so the rows.
    let rowsRead = 0;
    const loops = async (queriesPerLoop: number) =>
      Promise.all(
        Array.from({ length: 10 }, async (_, loop) => {
          for (let query = 0; query < queriesPerLoop; query += 1) {
            const { rows } = await page(loop);
            rowsRead += rows.length;
          }
        }),
      );
    try {
      await loops(50);
      const profiler = new GCProfiler();
      profiler.start();
      await loops(200);
      const collections = profiler.stop().statistics;
      const oldSpace = (state: (typeof collections)[number]['afterGC']) =>
        state.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0;
      const young = collections.filter((collection) => collection.gcType === 'Scavenge');
      const promoted = young.reduce((sum, collection) => sum + Math.max(0, oldSpace(collection.afterGC) - oldSpace(collection.beforeGC)), 0);
      // 500 queries to warm up, then 2,000 watched, of 50 rows of about 250 bytes each.
      expect(rowsRead).toBe(2500 * 50);
      expect(young.length, 'young collections during the queries').toBeGreaterThan(0);
      expect(promoted / 2000, 'bytes promoted per query').toBeLessThan(4096);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
