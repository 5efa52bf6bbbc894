// The embedded database has one writer: src/main.ts processes on one PGlite data directory. A second
// process refuses to start (exit 3, one line naming the directory and the holder) and the first keeps
// serving; a holder killed with SIGKILL in the middle of a write load (creates and status changes)
// leaves the directory to the next start, which finds every invoice that was acknowledged with 201 and
// whose kept invoice counts (migration 0007) still equal the invoices.
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { compareInvoiceCounts, migrate, openDatabase, seedIfEmpty } from './support/server-modules.js';
import { spawnService, startService, type ServiceProcess } from './support/service.js';
import { token } from './support/tokens.js';

/** Reopening a PGlite directory and compiling the validators takes tens of seconds on a busy machine. */
const startTimeoutMs = 150_000;
const loadLoops = 8;
/**
 * The holder is killed once this many creates were acknowledged, with the other loops mid-request: six
 * rounds of every loop, half of them followed by a status change, so the kill meets a directory that
 * has taken inserts and updates and a write of each loop in flight; a longer load only adds rows to
 * check, not another way to lose one.
 */
const acknowledgedBeforeKill = 48;

let root: string;
let dataDir: string;
let env: Record<string, string>;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'robust-single-writer-'));
  dataDir = join(root, 'pglite');
  // initdb, migrations and the demo data once, in this process: the services below only reopen it.
  const database = await openDatabase({ dataDir });
  try {
    await migrate(database);
    await seedIfEmpty(database);
  } finally {
    await database.close();
  }
  env = { DATABASE_URL: '', PGLITE_DATA_DIR: dataDir, SEED_DEMO_DATA: 'off' };
}, 300_000);

afterAll(async () => {
  await Promise.all(running.map((service) => service.stop()));
  await rm(root, { recursive: true, force: true });
});

async function start(): Promise<ServiceProcess> {
  const service = await startService(env, { startTimeoutMs });
  running.push(service);
  return service;
}

async function firstClientId(url: string, bearer: string): Promise<number> {
  const answer = await call(url, 'GET', '/api/v1/company_clients', { token: bearer });
  expect(answer.status).toBe(200);
  return (answer.body as { company_clients: Array<{ id: number }> }).company_clients[0]!.id;
}

function createInvoice(url: string, bearer: string, clientId: number, description: string) {
  return call(url, 'POST', '/api/v1/invoices', {
    token: bearer,
    body: { client_id: clientId, amount: 100, currency: 'CHF', due_date: '2026-12-31', description },
    timeoutMs: 30_000,
  });
}

function markSent(url: string, bearer: string, invoiceId: number) {
  return call(url, 'PATCH', `/api/v1/invoices/${invoiceId}`, { token: bearer, body: { status: 'sent' }, timeoutMs: 30_000 });
}

/** The total of a search: with no criteria a sum of kept counts, with `amount >= 0` (every invoice) a count. */
async function searchTotal(url: string, bearer: string, criteria: unknown[]): Promise<number> {
  const answer = await call(url, 'POST', '/api/v1/invoices/search', { token: bearer, body: { criteria, limit: 1 }, timeoutMs: 30_000 });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { pagination: { total: number } }).pagination.total;
}

describe('one process per PGlite data directory', () => {
  let holder: ServiceProcess;

  it(
    'refuses a second process on the same directory before it listens, naming the directory and the holder; the first keeps serving',
    async () => {
      holder = await start();
      const second = spawnService(env);
      // Without the lock it would start and listen instead of exiting: fail at once rather than wait.
      const listened = new Promise<'listened'>((resolve) => {
        const poll = setInterval(() => {
          if (second.logs().some((line) => line.includes('"msg":"listening"'))) resolve('listened');
        }, 100);
        void second.exited.finally(() => clearInterval(poll));
      });
      const outcome = await Promise.race([second.exited, listened]);
      if (outcome === 'listened') second.child.kill('SIGKILL');
      expect(outcome).toBe(3);
      const output = second.logs();
      expect(output, output.join('\n')).toHaveLength(1);
      expect(output[0]).toMatch(/^Cannot start: The PGlite data directory /);
      expect(output[0]).toContain(realpathSync(dataDir));
      expect(output[0]).toContain(`in use by process ${holder.child.pid} on host `);
      expect(output[0]).toContain('PGLITE_DATA_DIR');

      const bearer = await token();
      const created = await createInvoice(holder.url, bearer, await firstClientId(holder.url, bearer), 'after the refused start');
      expect(created.status).toBe(201);
      const id = (created.body as { invoice: { id: number } }).invoice.id;
      expect((await call(holder.url, 'GET', `/api/v1/invoices/${id}`, { token: bearer })).status).toBe(200);
    },
    startTimeoutMs + 60_000,
  );

  it(
    'after a SIGKILL of the holder under write load, the next start takes the directory over and has every acknowledged invoice',
    async () => {
      const bearer = await token();
      const clientId = await firstClientId(holder.url, bearer);
      const acknowledged: Array<{ id: number; invoice_number: string }> = [];
      let cut = 0;
      let killed = false;
      const loops = Array.from({ length: loadLoops }, async (_, loop) => {
        for (let n = 0; ; n += 1) {
          try {
            const answer = await createInvoice(holder.url, bearer, clientId, `load ${loop}-${n}`);
            expect(answer.status, answer.text).toBe(201);
            const { id, invoice_number } = (answer.body as { invoice: { id: number; invoice_number: string } }).invoice;
            acknowledged.push({ id, invoice_number });
            // Every other create is followed by a status change: the kill meets updates as well as inserts.
            if (n % 2 === 1) expect((await markSent(holder.url, bearer, id)).status).toBe(200);
          } catch (error) {
            if (!killed) throw error;
            // Sent to a process that was killed: never acknowledged, so it may or may not be stored.
            cut += 1;
            return;
          }
          if (!killed && acknowledged.length >= acknowledgedBeforeKill) {
            killed = true;
            holder.child.kill('SIGKILL');
          }
        }
      });
      await Promise.all(loops);
      expect(await holder.exited).toBe('SIGKILL');

      const next = await start();
      const missing: number[] = [];
      const wrong: number[] = [];
      for (let index = 0; index < acknowledged.length; index += loadLoops) {
        await Promise.all(
          acknowledged.slice(index, index + loadLoops).map(async ({ id, invoice_number }) => {
            const answer = await call(next.url, 'GET', `/api/v1/invoices/${id}`, { token: bearer });
            if (answer.status === 404) missing.push(id);
            else if ((answer.body as { invoice: { invoice_number: string } }).invoice.invoice_number !== invoice_number) wrong.push(id);
          }),
        );
      }
      console.log(
        `SIGKILL under write load: ${acknowledged.length} invoices acknowledged with 201, ${acknowledged.length - missing.length - wrong.length} found after the restart, ${cut} requests cut by the kill`,
      );
      expect(missing).toEqual([]);
      expect(wrong).toEqual([]);
      expect(new Set(acknowledged.map((invoice) => invoice.id)).size).toBe(acknowledged.length);
      expect(new Set(acknowledged.map((invoice) => invoice.invoice_number)).size).toBe(acknowledged.length);

      // The restarted service's totals: a sum of kept counts equals a count of the invoices.
      expect(await searchTotal(next.url, bearer, [])).toBe(await searchTotal(next.url, bearer, [{ field: 'amount', operator: '>=', value: 0 }]));
      for (const status of ['draft', 'sent']) {
        const byStatus = [{ field: 'status', operator: '=', value: status }];
        expect(await searchTotal(next.url, bearer, byStatus)).toBe(
          await searchTotal(next.url, bearer, [...byStatus, { field: 'amount', operator: '>=', value: 0 }]),
        );
      }

      // The new holder serves writes too, and a graceful stop hands the directory back.
      expect((await createInvoice(next.url, bearer, clientId, 'after the takeover')).status).toBe(201);
      await next.stop();
      expect(await next.exited).toBe(0);
      expect(existsSync(`${realpathSync(dataDir)}.lock`)).toBe(false);

      // Every kept count of every account equals its invoices.
      const database = await openDatabase({ dataDir });
      try {
        expect((await compareInvoiceCounts(database.db)).differences).toEqual([]);
      } finally {
        await database.close();
      }
    },
    startTimeoutMs + 120_000,
  );
});
