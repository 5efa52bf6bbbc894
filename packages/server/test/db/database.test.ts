import net from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, openDatabase } from '../../src/db/database.js';
import { migrate, migrations } from '../../src/db/migrate.js';
import { countRows, seedIfEmpty } from '../../src/db/seed.js';
import { engines, useTestDatabase } from '../support/databases.js';

describe.each(engines)('database on %s', (engine) => {
  const database = useTestDatabase(engine, { seed: true, name: 'db_database' });

  it('reports its engine and answers ping', async () => {
    expect(database().engine).toBe(engine);
    await expect(database().ping()).resolves.toBe(true);
  });

  it('has applied every migration, in order, and finds nothing left to do', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database().db);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(migrations));
    expect((await migrate(database())).results).toEqual([]);
  });

  it('serves "one client, newest first" from an index in that order', async () => {
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain select id from invoices where account_id = 1 and client_id = 5 order by created_at desc, id desc limit 50`.execute(database().db);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/invoices_account_id_client_id_created_at_id/);
    expect(plan).not.toMatch(/Sort Key/);
  });

  it('normalises int8, count, numeric, date and timestamptz the same way', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select 9007199254740991::int8 as big, count(*) as counted, 12.340::numeric as money,
             '2024-02-29'::date as day, '2024-01-02 03:04:05.1236+02'::timestamptz(3) as moment,
             current_setting('TimeZone') as zone`.execute(database().db);
    expect(rows[0]).toEqual({ big: 9007199254740991, counted: 1, money: '12.340', day: '2024-02-29', moment: '2024-01-02T01:04:05.124Z', zone: 'UTC' });
  });

  it('refuses an int8 a JavaScript number cannot hold exactly', async () => {
    await expect(sql`select 9007199254740993::int8 as too_big`.execute(database().db)).rejects.toThrow(/safe integer/);
  });

  it('stores timestamps with millisecond precision, so a value read back matches itself', async () => {
    const invoice = await database().db.selectFrom('invoices').select(['id', 'created_at']).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const again = await database().db.selectFrom('invoices').select('id').where('created_at', '=', invoice.created_at).execute();
    expect(again.map((row) => row.id)).toContain(invoice.id);
  });

  it('sorts text by code point on both engines', async () => {
    const { rows } = await sql<{ name: string }>`
      select name from (values ('b'), ('B'), ('a'), ('_x'), ('Ä')) as names(name) order by name collate "C"`.execute(database().db);
    expect(rows.map((row) => row.name)).toEqual(['B', '_x', 'a', 'b', 'Ä']);
    const clients = await database().db.selectFrom('company_clients').select('name').orderBy('name').execute();
    const names = clients.map((row) => row.name);
    expect(names).toEqual([...names].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0)));
  });

  it('seeds the demo data deterministically and only once', async () => {
    const counts = await countRows(database());
    expect(counts.accounts).toBeGreaterThanOrEqual(2);
    expect(counts.company_clients).toBe(30);
    expect(counts.invoices).toBe(5000);
    expect(counts.delivery_items).toBeGreaterThan(0);
    await expect(seedIfEmpty(database())).resolves.toBe(false);
    expect((await countRows(database())).invoices).toBe(5000);
    const statuses = await database().db.selectFrom('invoices').select('status').distinct().orderBy('status').execute();
    expect(statuses.map((row) => row.status)).toEqual(['cancelled', 'draft', 'overdue', 'paid', 'sent']);
    const first = await database()
      .db.selectFrom('invoices')
      .select(['invoice_number', 'amount', 'created_at'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    // Fixed PRNG seed and epoch: the same first invoice on every engine and every run.
    expect(first).toEqual({ invoice_number: 'INV-000001', amount: '5515.33', created_at: '2023-01-02T02:47:39.540Z' });
    const accounts = await database().db.selectFrom('accounts').select(['id', 'next_invoice_number']).orderBy('id').execute();
    const perAccount = await database()
      .db.selectFrom('invoices')
      .select(['account_id', database().db.fn.countAll<number>().as('n')])
      .groupBy('account_id')
      .orderBy('account_id')
      .execute();
    expect(accounts.map((row) => row.next_invoice_number)).toEqual(perAccount.map((row) => row.n + 1));
    expect(perAccount[0]!.n).toBeGreaterThan(perAccount[1]!.n);
  });

  it('keeps invoice numbers unique within an account', async () => {
    const existing = await database().db.selectFrom('invoices').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = existing;
    await expect(database().db.insertInto('invoices').values(copy).execute()).rejects.toMatchObject({ code: '23505' });
  });

  it('rejects an invoice naming a client of another account', async () => {
    const existing = await database().db.selectFrom('invoices').selectAll().where('account_id', '=', 1).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const foreignClient = await database().db.selectFrom('company_clients').select('id').where('account_id', '=', 2).limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = existing;
    await expect(
      database()
        .db.insertInto('invoices')
        .values({ ...copy, invoice_number: 'X-1', client_id: foreignClient.id })
        .execute(),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('can serve a like search from the trigram index', async () => {
    // At 5,000 rows the planner may prefer a b-tree walk; take the alternatives away (inside a
    // transaction that is rolled back) to prove the trigram index matches ILIKE '%...%' on this engine.
    const rolledBack = new Error('roll back');
    let plan = '';
    await database()
      .db.transaction()
      .execute(async (trx) => {
        await sql`drop index invoices_account_id_description_md5`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from invoices where (description collate "C.utf8") ilike '%retainer%'`.execute(
          trx,
        );
        plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    expect(plan).toMatch(/Index Scan on invoices_description_trgm/);
    const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'invoices'`.execute(database().db);
    expect(indexes.rows.map((row) => row.indexname)).toContain('invoices_account_id_description_md5');
  });

  it('stores a description of 1,000 four-byte characters (no b-tree entry limit on it)', async () => {
    const existing = await database().db.selectFrom('invoices').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = existing;
    const description = '🧾'.repeat(1000);
    const inserted = await database()
      .db.insertInto('invoices')
      .values({ ...copy, invoice_number: 'LONG-1', description })
      .returning('description')
      .executeTakeFirstOrThrow();
    expect(inserted.description).toBe(description);
  });

  it('answers false from ping once closed (the last test: it closes the shared database)', async () => {
    await database().close();
    await expect(database().ping()).resolves.toBe(false);
  });
});

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection and a pool timeout, and not an SQL error', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const address = server.address() as net.AddressInfo;
        server.close(() => resolve(address.port));
      });
    });
    const database = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres` });
    try {
      const failure = await sql`select 1`.execute(database.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(failure)).toBe(true);
      await expect(database.ping()).resolves.toBe(false);
    } finally {
      await database.close();
    }
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });

  it('recognises a connection the server cuts mid-session', async () => {
    // A proxy that accepts and then drops every connection: the pool sees a terminated connection.
    const server = net.createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as net.AddressInfo;
    const database = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres` });
    try {
      const failure = await sql`select 1`.execute(database.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(failure)).toBe(true);
    } finally {
      await database.close();
      server.close();
    }
  });
});
