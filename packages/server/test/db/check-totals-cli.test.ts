// `pnpm db:check-totals`: on the service's database of either engine (DATABASE_URL, or the PGlite data
// directory), a count made wrong by raw SQL is reported with exit 1, `--repair` writes the counted
// number back, and the next check finds nothing. Run in-process for each case, and once as the process
// the root script starts, for its exit status and output.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTotals, usage } from '../../src/db/check-totals-cli.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { compiledCommands } from '../support/compiled-service.js';
import { createPostgresDatabase, databaseHookTimeoutMs, engines, pgliteTemplate, type Engine, type ScratchPostgres } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';

async function runInProcess(argv: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await checkTotals(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { status, out, err };
}

describe.each(engines)('pnpm db:check-totals on %s', (engine: Engine) => {
  let scratch: ScratchPostgres | undefined;
  let dataDir: string | undefined;
  let env: NodeJS.ProcessEnv;
  let accountId: number;

  /** The database the command checks, opened by the test (the command must not run meanwhile on PGlite). */
  async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
    const database = await openDatabase(scratch === undefined ? { dataDir } : { url: scratch.url });
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    if (engine === 'postgres') {
      scratch = await createPostgresDatabase('check_totals');
      env = { DATABASE_URL: scratch.url };
    } else {
      dataDir = join(await mkdtemp(join(tmpdir(), 'check-totals-')), 'pglite');
      env = { DATABASE_URL: '', PGLITE_DATA_DIR: dataDir };
    }
    const database = await openDatabase(scratch === undefined ? { dataDir, pgliteDataDirDump: await pgliteTemplate() } : { url: scratch.url });
    try {
      await migrate(database);
      const account = await createAccount(database, { clients: 1 });
      accountId = account.accountId;
      await sql`
        insert into invoices (account_id, invoice_number, client_id, client_name, amount, currency, status, due_date)
        select ${accountId}, 'CHECK-' || n, ${account.clientIds[0]!}, 'Client', 1, case when n % 2 = 0 then 'CHF' else 'EUR' end, 'sent', date '2026-01-31'
        from generate_series(1, 6) n`.execute(database.db);
    } finally {
      await database.close();
    }
  }, databaseHookTimeoutMs);

  afterAll(async () => {
    await scratch?.drop();
    if (dataDir !== undefined) await rm(join(dataDir, '..'), { recursive: true, force: true });
  }, databaseHookTimeoutMs);

  it(
    'reports a count made wrong by raw SQL and one deleted (exit 1), repairs both (exit 0), and then finds nothing',
    async () => {
      expect(await runInProcess([], env)).toEqual({ status: 0, out: ['Checked 2 kept counts: every one equals its invoices.'], err: [] });

      await withDatabase(async (database) => {
        await sql`update invoice_counts set invoices = invoices + 2 where account_id = ${accountId} and currency = 'CHF'`.execute(database.db);
        await sql`delete from invoice_counts where account_id = ${accountId} and currency = 'EUR'`.execute(database.db);
      });
      const differences = [
        `account ${accountId}, status sent, currency CHF: kept 5, counted 3`,
        `account ${accountId}, status sent, currency EUR: kept 0, counted 3`,
      ];
      expect(await runInProcess([], env)).toEqual({
        status: 1,
        out: [...differences, 'Checked 2 kept counts: 2 differ from their invoices. pnpm db:check-totals --repair writes the counted numbers back.'],
        err: [],
      });

      expect(await runInProcess(['--repair'], env)).toEqual({
        status: 0,
        out: [...differences, 'Checked 2 kept counts: 2 differ from their invoices; repaired, in one transaction.'],
        err: [],
      });
      expect(await runInProcess([], env)).toEqual({ status: 0, out: ['Checked 2 kept counts: every one equals its invoices.'], err: [] });
    },
    databaseHookTimeoutMs,
  );

  if (engine === 'pglite') {
    it('refuses a data directory a service holds, in one line (exit 2)', async () => {
      await withDatabase(async () => {
        const { status, out, err } = await runInProcess([], env);
        expect({ status, out }).toEqual({ status: 2, out: [] });
        expect(err).toHaveLength(1);
        expect(err[0]).toMatch(/^Cannot check the totals: The PGlite data directory .* is in use by process /);
      });
    });
  }

  if (engine === 'postgres') {
    it(
      'as the process the root script runs: prints the difference and exits 1',
      async () => {
        await withDatabase((database) => sql`update invoice_counts set invoices = 0 where account_id = ${accountId} and currency = 'CHF'`.execute(database.db));
        const failed = await promisify(execFile)(process.execPath, ['--enable-source-maps', compiledCommands['check-totals']], {
          env: { ...process.env, ...env },
          timeout: 60_000,
        }).then(
          () => undefined,
          (error: { code?: number; stdout?: string; stderr?: string }) => error,
        );
        expect(failed?.code).toBe(1);
        expect(failed?.stdout).toBe(
          `account ${accountId}, status sent, currency CHF: kept 0, counted 3\nChecked 2 kept counts: 1 differs from its invoices. pnpm db:check-totals --repair writes the counted numbers back.\n`,
        );
        expect(failed?.stderr).toBe('');
        expect((await runInProcess(['--repair'], env)).status).toBe(0);
      },
      databaseHookTimeoutMs,
    );

    it('says in one line that a database without kept counts must be migrated first (exit 2)', async () => {
      const empty = await createPostgresDatabase('check_totals_empty');
      try {
        expect(await runInProcess([], { DATABASE_URL: empty.url })).toEqual({
          status: 2,
          out: [],
          err: ['Cannot check the totals: this database keeps no invoice counts yet (migration 0007). Start the service once: it migrates the database.'],
        });
      } finally {
        await empty.drop();
      }
    });

    it('names an unreachable PostgreSQL in one line (exit 2)', async () => {
      const { status, err } = await runInProcess([], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
      expect(status).toBe(2);
      expect(err).toEqual([expect.stringMatching(/^Cannot check the totals: cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\)/)]);
    });
  }
});

describe('pnpm db:check-totals arguments', () => {
  it('--help prints the usage (exit 0); an unknown option prints it on stderr (exit 2)', async () => {
    expect(await runInProcess(['--help'], {})).toEqual({ status: 0, out: [usage], err: [] });
    const unknown = await runInProcess(['--fix'], {});
    expect(unknown.status).toBe(2);
    expect(unknown.err[0]).toMatch(/^Unknown option '--fix'/);
    expect(unknown.err[0]).toContain(usage);
  });
});
