// The rungs of `pnpm bench -- --duties` (src/bare-duties.ts) do the duties they are named for: a rung
// whose validator never matched the path, or whose token check let everything through, would make the
// ladder measure less than the service does and call it the duties' cost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBare } from '../src/bare.js';
import { answerCheckOf, dutyRungs, type DutyRung } from '../src/bare-duties.js';
import { benchInvoiceId } from '../src/bench-invoice.js';
import type { RunningServer } from '../src/child-process.js';
import { dropDatabase } from '../src/dataset/postgres-admin.js';
import { preparedPostgresDatabase } from '../src/dataset/prepare.js';
import { send } from '../src/http-request.js';
import { profiles } from '../src/profiles.js';
import { benchAccountId } from '../src/scenarios.js';
import { mintDevToken } from '../src/server-modules.js';
import { raisedRateLimits } from '../src/service.js';

const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `bench_duties_${process.pid}`;

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

describe("the duties' rungs on express alone", () => {
  let directory: string;
  let token: string;
  let withoutScope: string;
  let invoiceId: number;
  /** An invoice whose number the database takes and the spec's pattern does not: its answer fails the answer check. */
  let offSpecInvoiceId: number;
  const servers = new Map<DutyRung | 'none', RunningServer>();
  /** What each server wrote to stdout after it started listening: its log lines. */
  const stdoutOf = new Map<DutyRung | 'none', string>();

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'bench-duties-'));
    const devKeyFile = join(directory, 'dev-key.json');
    const url = await preparedPostgresDatabase(serverUrl, databaseName, profiles.smoke.postgres, () => undefined);
    invoiceId = await benchInvoiceId(url);
    token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench' });
    withoutScope = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', scopes: ['users:read'] });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>(
        `update invoices set invoice_number = '-not a number' where id = (select id from invoices where account_id = $1 and id <> $2 order by id limit 1) returning id`,
        [benchAccountId, invoiceId],
      );
      offSpecInvoiceId = Number(rows[0]?.id);
    } finally {
      await client.end();
    }
    const env = { DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits };
    const rungs = ['none', ...dutyRungs] as const;
    const started = await Promise.all(
      rungs.map((rung) => startBare({ databaseUrl: url, poolSize: 2, framework: 'express', ...(rung === 'none' ? {} : { duties: rung, env }) })),
    );
    rungs.forEach((rung, index) => {
      const server = started[index]!;
      servers.set(rung, server);
      server.process.stdout?.on('data', (chunk: Buffer) => stdoutOf.set(rung, (stdoutOf.get(rung) ?? '') + chunk.toString('utf8')));
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    await dropDatabase(serverUrl, databaseName);
    await rm(directory, { recursive: true, force: true });
  }, 60_000);

  async function ask(rung: DutyRung | 'none', method: 'GET' | 'POST', path: string, options: { bearer?: string; body?: unknown } = {}): Promise<Answer> {
    const server = servers.get(rung);
    if (server === undefined) throw new Error(`no server for ${rung}`);
    const answer = await send(new URL(path, server.url), {
      method,
      headers: {
        accept: 'application/json',
        ...(options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` }),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      timeoutMs: 30_000,
    });
    return { status: answer.status, text: answer.text, headers: answer.headers };
  }

  const search = { criteria: [{ field: 'client_id', operator: '=', value: 7 }] };

  it('answers getInvoice and the search on every rung alike, behind a valid token', async () => {
    const rungs = ['none', ...dutyRungs] as const;
    const invoices = await Promise.all(rungs.map((rung) => ask(rung, 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: token })));
    const searches = await Promise.all(rungs.map((rung) => ask(rung, 'POST', '/api/v1/invoices/search', { bearer: token, body: search })));
    for (const answers of [invoices, searches]) {
      expect(answers.map((answer) => answer.status)).toEqual(rungs.map(() => 200));
      for (const answer of answers) expect(answer.text).toBe(answers[0]!.text);
    }
    expect((JSON.parse(searches[0]!.text) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('validates from the validator rung up: a malformed id and a malformed search are refused', async () => {
    // Nothing checks it on express alone: the handler fails on what it cannot bind.
    expect((await ask('none', 'POST', '/api/v1/invoices/search', { bearer: token, body: { limit: 'ten' } })).status).toBe(500);
    expect((await ask('none', 'GET', `/api/v1/invoices/${invoiceId}?unknown=1`, { bearer: token })).status).toBe(200);
    for (const rung of dutyRungs) {
      expect((await ask(rung, 'POST', '/api/v1/invoices/search', { bearer: token, body: { limit: 'ten' } })).status).toBe(400);
      expect((await ask(rung, 'GET', `/api/v1/invoices/${invoiceId}?unknown=1`, { bearer: token })).status).toBe(400);
    }
  });

  it('sends the request id, the log line and the security headers from the "every request" rung up', async () => {
    const below = await ask('validator', 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: token });
    expect(below.headers['x-request-id']).toBeUndefined();
    expect(below.headers['content-security-policy']).toBeUndefined();
    for (const rung of ['every request', 'guarded', 'answers checked'] as const) {
      const answer = await ask(rung, 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: token });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    }
    // The log is written asynchronously, in batches: read until the line arrives.
    await expect.poll(() => stdoutOf.get('every request') ?? '', { timeout: 10_000 }).toMatch(/"msg":"request completed"/);
    expect(stdoutOf.get('validator') ?? '').not.toMatch(/request completed/);
  });

  it('checks the token and counts the rate limit on the guarded rung only', async () => {
    expect((await ask('every request', 'GET', `/api/v1/invoices/${invoiceId}`)).status).toBe(200);
    for (const rung of ['guarded', 'answers checked'] as const) {
      expect((await ask(rung, 'GET', `/api/v1/invoices/${invoiceId}`)).status).toBe(401);
      expect((await ask(rung, 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: `${token}x` })).status).toBe(401);
      const answer = await ask(rung, 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: token });
      expect(answer.status).toBe(200);
      expect(answer.headers['ratelimit']).toMatch(/; r=\d+; t=\d+$/);
    }
  });

  it('refuses a token without the scope on the guarded rungs only', async () => {
    expect((await ask('every request', 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: withoutScope })).status).toBe(200);
    for (const rung of ['guarded', 'answers checked'] as const)
      expect((await ask(rung, 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: withoutScope })).status).toBe(403);
  });

  it('refuses to send an answer the spec does not allow on the top rung only', async () => {
    const answers = await Promise.all(
      (['none', ...dutyRungs] as const).map((rung) => ask(rung, 'GET', `/api/v1/invoices/${offSpecInvoiceId}`, { bearer: token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 500]);
    expect(answers[4]!.text).not.toContain('-not a number');
  });

  it("checks answers on the top rung only, with the service's compiled check", async () => {
    for (const rung of ['validator', 'every request', 'guarded'] as const) expect(answerCheckOf(rung)).toBeUndefined();
    const check = answerCheckOf('answers checked');
    if (check === undefined) throw new Error('the top rung checks answers');
    const answer = await ask('answers checked', 'GET', `/api/v1/invoices/${invoiceId}`, { bearer: token });
    const invoice = (JSON.parse(answer.text) as { invoice: Record<string, unknown> }).invoice;
    expect(() => check('getInvoice', 200, { invoice })).not.toThrow();
    expect(() => check('getInvoice', 200, { invoice: { ...invoice, amount: 'a lot' } })).toThrow();
    expect(() => check('getInvoice', 200, { invoice: { ...invoice, created_at: '2026-02-30T00:00:00Z' } })).toThrow();
  });
});
