// db:copy's copy in-process, on real engines: a seeded embedded database (PGlite) with every kind of
// row, an idempotency key and an attached file stored through the real service among them, copied into
// an empty PostgreSQL database and back into an empty PGlite; rows, sequences and counters compared
// table by table with what the source holds, the file's bytes and SHA-256 as uploaded; a target with rows refused; and a create retried after the move replayed.
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIncompleteCopy } from '../../src/db/copy-marker.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { seedIfEmpty } from '../../src/db/seed.js';
import { createHandlers } from '../../src/operations/index.js';
import { copyDatabase, type CopyOutcome } from '../../src/ops/copy-database.js';
import { createPostgresDatabase, databaseHookTimeoutMs, openTestDatabase, type ScratchPostgres, type TestDatabase } from '../support/databases.js';
import { startTestService, token } from '../http/support/service.js';
import { contents, sequences } from '../support/database-contents.js';

const silent = (): void => undefined;

/** A small PDF attached before the move, with every byte value in it: bytea must carry each exactly. */
const attachedPdf = new Uint8Array([...Buffer.from('%PDF-1.7\n%', 'latin1'), ...Array.from({ length: 256 }, (_, byte) => byte), ...Buffer.from('\n%%EOF\n')]);
const attachedSha256 = createHash('sha256').update(attachedPdf).digest('hex');

/** The attached files' bytes and stored SHA-256, by id. */
const attachedFiles = async (database: Database) =>
  (await database.db.selectFrom('invoice_attachments').select(['id', 'content', 'sha256']).orderBy('id').execute()).map((row) => ({
    id: row.id,
    content: new Uint8Array(row.content),
    sha256: row.sha256,
  }));

/** The set-up opens PGlite, seeds it and starts a service (seconds each, a minute or more on a loaded machine). */
const setUpTimeoutMs = 3 * databaseHookTimeoutMs;

describe('copying the embedded database to PostgreSQL and back', () => {
  let source: TestDatabase;
  let scratch: ScratchPostgres;
  let postgres: Database;
  let copied: CopyOutcome;
  const key = randomUUID();
  let bearer: string;
  let firstAnswer: { status: number; body: string; location: string | null };
  const invoiceBody = { client_id: 1, amount: 99.95, currency: 'CHF', due_date: '2026-12-31', description: `before the move ${key}` };

  const createInvoice = (url: string, idempotencyKey: string) =>
    fetch(`${url}/api/v1/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(invoiceBody),
    });

  beforeAll(async () => {
    source = await openTestDatabase('pglite');
    await seedIfEmpty(source, { invoices: 120, deliveries: 12, seed: 11 });
    bearer = await token({ accountId: 1, clientId: 'the-move' });
    // A create with an Idempotency-Key through the real service: its answer is stored in idempotency_keys.
    const service = await startTestService({ database: source, handlers: createHandlers() });
    try {
      const answer = await createInvoice(service.url, key);
      firstAnswer = { status: answer.status, body: await answer.text(), location: answer.headers.get('location') };
      const form = new FormData();
      form.append('file', new File([attachedPdf], 'before-the-move.pdf', { type: 'application/pdf' }));
      const attached = await fetch(`${service.url}${firstAnswer.location}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}` },
        body: form,
      });
      expect(attached.status).toBe(201);
    } finally {
      await service.close();
    }
    scratch = await createPostgresDatabase('copy');
    postgres = await openDatabase({ url: scratch.url, poolSize: 2 });
    copied = await copyDatabase(source, postgres, { sourceName: 'the test PGlite', targetName: 'the scratch database', progress: silent });
  }, setUpTimeoutMs);

  afterAll(async () => {
    await postgres?.close();
    await scratch?.drop();
    await source?.dispose();
  }, databaseHookTimeoutMs);

  it('copies every table, and its report shows the same counts and checksums on both sides', async () => {
    expect(firstAnswer.status).toBe(201);
    expect(copied.resumed).toBe(false);
    expect(copied.tables.map((check) => check.table).sort()).toEqual(
      ['accounts', 'company_clients', 'deliveries', 'delivery_items', 'idempotency_keys', 'invoice_attachments', 'invoice_counts', 'invoices', 'users'].sort(),
    );
    for (const check of copied.tables) {
      expect(check.targetRows, check.table).toBe(check.sourceRows);
      expect(check.targetChecksum, check.table).toBe(check.sourceChecksum);
    }
    expect(copied.tables.find((check) => check.table === 'idempotency_keys')?.sourceRows).toBe(1);
    expect(copied.tables.find((check) => check.table === 'invoices')?.sourceRows).toBe(121);
  });

  it('leaves PostgreSQL holding the same rows, counters and sequences, with no marker left', async () => {
    expect(await contents(postgres)).toEqual(await contents(source));
    expect(await sequences(postgres)).toEqual(await sequences(source));
    expect(await findIncompleteCopy(postgres.db)).toBeUndefined();
  });

  it("carries an attached file's bytes exactly, matching the SHA-256 stored with them", async () => {
    const files = await attachedFiles(postgres);
    expect(files).toEqual(await attachedFiles(source));
    expect(files.map((file) => [file.content, file.sha256, createHash('sha256').update(file.content).digest('hex')])).toEqual([
      [attachedPdf, attachedSha256, attachedSha256],
    ]);
  });

  it('refuses a target that already holds rows, and leaves it as it was', async () => {
    const before = await contents(postgres);
    await expect(copyDatabase(source, postgres, { sourceName: 'again', targetName: 'the scratch database', progress: silent })).rejects.toThrow(
      /the scratch database already holds rows \(in accounts, .*\); db:copy fills only an empty database/,
    );
    expect(await findIncompleteCopy(postgres.db)).toBeUndefined();
    expect(await contents(postgres)).toEqual(before);
  });

  it('replays, on PostgreSQL, a create whose key was stored before the move; new writes get new ids and count once', async () => {
    const service = await startTestService({ database: postgres, handlers: createHandlers() });
    try {
      const versionBefore = await sql<{ version: string }>`select invoices_version::text as version from accounts where id = 1`.execute(postgres.db);
      const replay = await createInvoice(service.url, key);
      expect(replay.status).toBe(firstAnswer.status);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('location')).toBe(firstAnswer.location);
      expect(await replay.text()).toBe(firstAnswer.body);

      const fresh = await createInvoice(service.url, randomUUID());
      expect(fresh.status).toBe(201);
      const id = Number(fresh.headers.get('location')?.split('/').pop());
      const highest = await sql<{ id: string }>`select max(id)::text as id from invoices where id <> ${id}`.execute(postgres.db);
      expect(id).toBe(Number(highest.rows[0]?.id) + 1);
      // The triggers are back on after the copy: one insert statement, one bump of the account's counter.
      const versionAfter = await sql<{ version: string }>`select invoices_version::text as version from accounts where id = 1`.execute(postgres.db);
      expect(Number(versionAfter.rows[0]?.version)).toBe(Number(versionBefore.rows[0]?.version) + 1);
    } finally {
      await service.close();
    }
  });

  it('copies PostgreSQL back into an empty embedded database', async () => {
    const back = await openTestDatabase('pglite');
    try {
      const outcome = await copyDatabase(postgres, back, { sourceName: 'the scratch database', targetName: 'a new PGlite', progress: silent });
      expect(outcome.tables.every((check) => check.sourceChecksum === check.targetChecksum)).toBe(true);
      expect(await contents(back)).toEqual(await contents(postgres));
      expect(await sequences(back)).toEqual(await sequences(postgres));
      expect((await attachedFiles(back)).map((file) => [file.content, file.sha256])).toEqual([[attachedPdf, attachedSha256]]);
    } finally {
      await back.dispose();
    }
  });
});
