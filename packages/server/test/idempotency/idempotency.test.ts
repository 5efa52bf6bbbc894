// Idempotency-Key through real HTTP on both engines: the first request runs and its answer is stored
// in the write's transaction; a repeat replays it (marked), another request with the key is 422, a
// repeat while the first runs is 409 (held deterministically: by the single PGlite connection, or by
// the key's advisory lock taken from another PostgreSQL session); errors are not stored; keys are per
// account and API key; an expired key counts as new and is purged off the request path.
import { randomUUID } from 'node:crypto';
import { loadSpec, operationTable } from '@invoice-api/contract';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiredKeyPurger, idempotentOperations, parseIdempotencyKey, purgeExpiredKeys } from '../../src/idempotency/index.js';
import { lockName, lockSeed } from '../../src/idempotency/store.js';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { startTestService, token, type TestService } from '../http/support/service.js';

describe.each(engines)('Idempotency-Key on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'idempotency' });
  let service: TestService;
  let account: TestAccount;
  let bearer: string;
  const clientId = `idem-${randomUUID()}`;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 2 });
    bearer = await token({ accountId: account.accountId, clientId });
    service = await startTestService({ database: database(), handlers: createHandlers() });
  });
  afterAll(() => service?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, auth = bearer) =>
    fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const invoiceBody = (description: string, overrides: Record<string, unknown> = {}) => ({
    client_id: account.clientIds[0],
    amount: 10.5,
    currency: 'CHF',
    due_date: '2026-12-31',
    description,
    ...overrides,
  });
  const createInvoice = (body: unknown, key?: string, auth?: string) =>
    post('/api/v1/invoices', body, key === undefined ? {} : { 'idempotency-key': key }, auth);
  const invoicesDescribed = async (description: string) =>
    Number((await sql<{ n: number }>`select count(*)::int as n from invoices where description = ${description}`.execute(database().db)).rows[0]!.n);

  it('replays the stored answer to a repeat, marked, and writes once', async () => {
    const key = randomUUID();
    const description = `replay ${key}`;
    const first = await createInvoice(invoiceBody(description), key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();

    const again = await createInvoice(invoiceBody(description), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await invoicesDescribed(description)).toBe(1);
    // Kept for IDEMPOTENCY_TTL_HOURS (24 by default), counted from the write's transaction.
    const kept = await sql<{
      hours: number;
    }>`select extract(epoch from expires_at - created_at)::int / 3600 as hours from idempotency_keys where idempotency_key = ${key}`.execute(database().db);
    expect(kept.rows.map((row) => Number(row.hours))).toEqual([24]);
  });

  it("takes the draft's quoted form as the same key, and key order or spacing as the same body", async () => {
    const key = randomUUID();
    const description = `quoted ${key}`;
    expect((await createInvoice(invoiceBody(description), key)).status).toBe(201);
    const reordered = await post(
      '/api/v1/invoices',
      { description, due_date: '2026-12-31', currency: 'CHF', amount: 10.5, client_id: account.clientIds[0] },
      { 'idempotency-key': `"${key}"` },
    );
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(await invoicesDescribed(description)).toBe(1);
  });

  it('refuses the same key with a different request: 422 idempotency_key_reused, nothing written', async () => {
    const key = randomUUID();
    expect((await createInvoice(invoiceBody(`first ${key}`), key)).status).toBe(201);
    const other = await createInvoice(invoiceBody(`second ${key}`), key);
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      error: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used for a different request; use a new key for a new request.',
      details: { field: 'Idempotency-Key', issue: 'was used for a different request' },
    });
    expect(await invoicesDescribed(`second ${key}`)).toBe(0);
    // Another operation is another request too.
    const delivery = await post('/2.0/delivery', { contact_id: account.clientIds[0] }, { 'idempotency-key': key });
    expect(delivery.status).toBe(422);
  });

  it("keeps keys per API key and per account: another caller's same key is a new request", async () => {
    const key = randomUUID();
    const description = `scoped ${key}`;
    expect((await createInvoice(invoiceBody(description), key)).status).toBe(201);
    const otherKey = await createInvoice(invoiceBody(description), key, await token({ accountId: account.accountId, clientId: `${clientId}-other` }));
    expect(otherKey.status).toBe(201);
    expect(otherKey.headers.get('idempotent-replayed')).toBeNull();
    expect(await invoicesDescribed(description)).toBe(2);
  });

  it('does not store an error: the key can be used again once the request is right', async () => {
    const key = randomUUID();
    const description = `error ${key}`;
    const refused = await createInvoice(invoiceBody(description, { client_id: 999_999_999 }), key);
    expect(refused.status).toBe(400);
    const fixed = await createInvoice(invoiceBody(description), key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect(await invoicesDescribed(description)).toBe(1);
  });

  it('without a key, runs every request as before', async () => {
    const description = `no key ${randomUUID()}`;
    expect((await createInvoice(invoiceBody(description))).status).toBe(201);
    expect((await createInvoice(invoiceBody(description))).status).toBe(201);
    expect(await invoicesDescribed(description)).toBe(2);
  });

  it.each([
    ['a space', 'bad key'],
    ['256 characters', 'k'.repeat(256)],
    ['an unbalanced quote', '"abc'],
    ['an empty quoted string', '""'],
  ])('answers 400 naming Idempotency-Key for a key with %s', async (_, key) => {
    const response = await createInvoice(invoiceBody('bad key'), key);
    expect(response.status).toBe(400);
    const issue = 'must be 1 to 255 characters of letters, digits and - _ . : ~ + / =';
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      message: `Invalid header 'Idempotency-Key': ${issue}.`,
      details: { field: 'Idempotency-Key', issue },
    });
  });

  it('replays an issue: the delivery is issued once, a keyless repeat is 409 already_issued', async () => {
    const created = await post('/2.0/delivery', { contact_id: account.clientIds[0] }, { 'idempotency-key': randomUUID() });
    expect(created.status).toBe(201);
    const { delivery } = (await created.json()) as { delivery: { id: number } };
    const issue = { delivery_id: delivery.id, contact_id: account.clientIds[1], items: [{ item_id: 7, quantity: 2, unit_price: 3.5 }] };
    const key = randomUUID();
    const first = await post('/2.0/delivery/issue', issue, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const replayed = await post('/2.0/delivery/issue', issue, { 'idempotency-key': key });
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.text()).toBe(firstBody);
    const keyless = await post('/2.0/delivery/issue', issue);
    expect(keyless.status).toBe(409);
    expect(((await keyless.json()) as { error: string }).error).toBe('already_issued');
    const version = await sql<{ version: number }>`select version from deliveries where id = ${delivery.id}`.execute(database().db);
    expect(version.rows[0]!.version).toBe(2);
  });

  it('answers 409 idempotency_key_in_use to a repeat while the first still runs, then replays', async () => {
    const key = randomUUID();
    const description = `in use ${key}`;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // Keep the first request from finishing: on PGlite by holding its one connection in a transaction
    // (the first request queues behind it, its key marked in flight); on PostgreSQL by holding the key's
    // advisory lock from another session, as a request on another instance would.
    const holder =
      engine === 'pglite'
        ? database()
            .db.transaction()
            .execute(async () => {
              holding();
              await released;
            })
        : database()
            .db.connection()
            .execute(async (session) => {
              await sql`select pg_advisory_lock(hashtextextended(${lockName({ accountId: account.accountId, apiKey: clientId, key })}, ${lockSeed}))`.execute(
                session,
              );
              holding();
              await released;
              await sql`select pg_advisory_unlock_all()`.execute(session);
            });
    await held;
    if (engine === 'pglite') {
      // Both requests queue behind the held connection; whichever reached the middleware second is
      // refused at once, because the other's key is in flight.
      const both = [createInvoice(invoiceBody(description), key), createInvoice(invoiceBody(description), key)];
      const refused = await Promise.race(both);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual(inUseBody);
      release();
      await holder;
      expect((await Promise.all(both)).map((response) => response.status).sort()).toEqual([201, 409]);
    } else {
      const second = await createInvoice(invoiceBody(description), key);
      expect(second.status).toBe(409);
      expect(await second.json()).toEqual(inUseBody);
      release();
      await holder;
      expect((await createInvoice(invoiceBody(description), key)).status).toBe(201);
    }
    const replay = await createInvoice(invoiceBody(description), key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await invoicesDescribed(description)).toBe(1);
  });

  it('treats an expired key as new', async () => {
    const key = randomUUID();
    const description = `expired ${key}`;
    expect((await createInvoice(invoiceBody(description), key)).status).toBe(201);
    await sql`update idempotency_keys set expires_at = now() - interval '1 second' where idempotency_key = ${key}`.execute(database().db);
    const again = await createInvoice(invoiceBody(description), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await invoicesDescribed(description)).toBe(2);
    // The new answer replaced the expired one and replays.
    expect((await createInvoice(invoiceBody(description), key)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('purges expired keys in bounded batches, leaving live ones', async () => {
    const prefix = `purge-${randomUUID()}`;
    const rows = (count: number, expired: boolean) =>
      Array.from({ length: count }, (_, index) => ({
        account_id: account.accountId,
        api_key: prefix,
        idempotency_key: `${expired ? 'old' : 'live'}-${index}`,
        fingerprint: 'x',
        status: 201,
        headers: '{}',
        body: '{}',
        expires_at: expired ? '2000-01-01T00:00:00.000Z' : '2999-01-01T00:00:00.000Z',
      }));
    await database().db.deleteFrom('idempotency_keys').where('expires_at', '<=', sql<string>`now()`).execute();
    await database()
      .db.insertInto('idempotency_keys')
      .values([...rows(7, true), ...rows(2, false)])
      .execute();
    expect(await purgeExpiredKeys(database().db, 3)).toBe(3);
    const purger = expiredKeyPurger(database(), pino({ level: 'silent' }), { batchSize: 2 });
    purger.poke();
    await purger.idle();
    const left = await database()
      .db.selectFrom('idempotency_keys')
      .select('idempotency_key')
      .where('api_key', '=', prefix)
      .orderBy('idempotency_key')
      .execute();
    expect(left.map((row) => row.idempotency_key)).toEqual(['live-0', 'live-1']);
  });

  const inUseBody = {
    error: 'idempotency_key_in_use',
    message: 'A request with this Idempotency-Key is still being processed; retry it later to get its answer.',
    details: { field: 'Idempotency-Key', issue: 'is in use by a request still running' },
  };
});

describe('the Idempotency-Key header, as the spec declares it', () => {
  type SpecParameter = { name: string; in: string; schema: { pattern: string } };
  const spec = loadSpec() as unknown as {
    paths: Record<string, Record<string, { operationId?: string; parameters?: Array<SpecParameter | { $ref: string }> }>>;
    components: { parameters: Record<string, SpecParameter> };
  };
  const declared = (parameter: SpecParameter | { $ref: string }): SpecParameter =>
    '$ref' in parameter ? spec.components.parameters[parameter.$ref.split('/').pop()!]! : parameter;

  it('is honoured by exactly the operations that declare it', () => {
    const declaring = Object.values(spec.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => (operation.parameters ?? []).some((parameter) => declared(parameter).name === 'Idempotency-Key'))
      .map((operation) => operation.operationId);
    expect([...idempotentOperations].sort()).toEqual(declaring.sort());
    expect(idempotentOperations.length).toBeGreaterThan(0);
  });

  it("accepts what the spec's pattern accepts and refuses the rest", () => {
    const pattern = new RegExp(spec.components.parameters['Idempotency-Key']!.schema.pattern, 'u');
    const operation = operationTable[idempotentOperations[0]!];
    const samples = [
      'k',
      'a'.repeat(255),
      'a'.repeat(256),
      '"quoted-key"',
      '"',
      'with space',
      'ünï',
      '550e8400-e29b-41d4-a716-446655440000',
      'a+b/c=d~e:f.g_h',
    ];
    for (const sample of samples) {
      const parse = () => parseIdempotencyKey(operation, sample);
      if (pattern.test(sample)) expect(parse()).toBe(sample.replace(/^"(.*)"$/u, '$1'));
      else expect(parse).toThrow(/Idempotency-Key/);
    }
  });
});
