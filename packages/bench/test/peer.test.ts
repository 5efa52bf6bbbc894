// The hand-wired peer (src/peer-server.ts) the benchmark compares the service with answers what the
// service answers: the same body for the same search and getInvoice (the peer makes no cursor), and
// the same refusals of a missing, bad or under-scoped token and of a malformed body.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/child-process.js';
import { dropDatabase } from '../src/dataset/postgres-admin.js';
import { preparedPostgresDatabase } from '../src/dataset/prepare.js';
import { send } from '../src/http-request.js';
import { startPeer } from '../src/peer.js';
import { profiles } from '../src/profiles.js';
import { benchAccountId } from '../src/scenarios.js';
import { mintDevToken } from '../src/server-modules.js';
import { startService } from '../src/service.js';
import { benchInvoiceId } from '../src/bench-invoice.js';

const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `bench_peer_${process.pid}`;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

describe('the hand-wired peer', () => {
  let directory: string;
  let token: string;
  let withoutScope: string;
  let otherIssuer: string;
  let invoiceId: number;
  let service: RunningServer;
  let peer: RunningServer;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'bench-peer-'));
    const devKeyFile = join(directory, 'dev-key.json');
    const url = await preparedPostgresDatabase(serverUrl, databaseName, profiles.smoke.postgres, () => undefined);
    invoiceId = await benchInvoiceId(url);
    token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench' });
    withoutScope = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', scopes: ['users:read'] });
    // Signed with another key: a token the service's key does not verify.
    otherIssuer = await mintDevToken({ keyFile: join(directory, 'other-key.json'), accountId: benchAccountId, clientId: 'bench' });
    [service, peer] = await Promise.all([startService({ databaseUrl: url, devKeyFile, metrics: true }), startPeer({ databaseUrl: url, devKeyFile })]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([service?.stop(), peer?.stop()]);
    await dropDatabase(serverUrl, databaseName);
    await rm(directory, { recursive: true, force: true });
  }, 60_000);

  async function ask(server: RunningServer, method: 'GET' | 'POST', path: string, bearer: string | undefined, body?: unknown): Promise<Answer> {
    const answer = await send(new URL(path, server.url), {
      method,
      headers: {
        accept: 'application/json',
        ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      timeoutMs: 30_000,
    });
    return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown>, headers: answer.headers };
  }

  /** The same request to both. */
  const both = (method: 'GET' | 'POST', path: string, bearer: string | undefined, body?: unknown) =>
    Promise.all([ask(service, method, path, bearer, body), ask(peer, method, path, bearer, body)]);

  /** A search answer without its cursor, which only the service makes. */
  function withoutCursor(body: Record<string, unknown>): Record<string, unknown> {
    const { next_cursor: _cursor, ...pagination } = body['pagination'] as Record<string, unknown>;
    return { ...body, pagination };
  }

  it.each([
    ['one client', { criteria: [{ field: 'client_id', operator: '=', value: 7 }] }],
    ['defaults', {}],
    [
      'a status, by amount, a later page',
      { criteria: [{ field: 'status', operator: '=', value: 'paid' }], order_by: 'amount', order_direction: 'asc', limit: 7, offset: 20 },
    ],
  ])("answers the search (%s) with the service's body", async (_name, body) => {
    const [fromService, fromPeer] = await both('POST', '/api/v1/invoices/search', token, body);
    expect(fromService.status).toBe(200);
    expect(fromPeer.status).toBe(200);
    expect((fromService.body['data'] as unknown[]).length).toBeGreaterThan(0);
    expect(withoutCursor(fromPeer.body)).toEqual(withoutCursor(fromService.body));
    expect(fromPeer.body['pagination']).not.toHaveProperty('next_cursor');
  });

  it("answers getInvoice with the service's body and ETag", async () => {
    const [fromService, fromPeer] = await both('GET', `/api/v1/invoices/${invoiceId}`, token);
    expect(fromService.status).toBe(200);
    expect(fromPeer.status).toBe(200);
    expect(fromPeer.body).toEqual(fromService.body);
    expect(fromPeer.headers['etag']).toBe(fromService.headers['etag']);
  });

  it('answers a missing invoice 404 not_found, as the service', async () => {
    const answers = await both('GET', '/api/v1/invoices/999999999', token);
    for (const answer of answers) expect([answer.status, answer.body['error']]).toEqual([404, 'not_found']);
  });

  it.each([
    ['no token', undefined],
    ['a token of another key', 'other'],
    ['a malformed token', 'not.a.token'],
  ])('refuses %s with 401 unauthorized and a Bearer challenge, as the service', async (_name, which) => {
    const bearer = which === 'other' ? otherIssuer : which;
    for (const [method, path, body] of [
      ['GET', `/api/v1/invoices/${invoiceId}`, undefined],
      ['POST', '/api/v1/invoices/search', {}],
    ] as const) {
      const answers = await both(method, path, bearer, body);
      for (const answer of answers) {
        expect([answer.status, answer.body['error']], `${method} ${path}`).toEqual([401, 'unauthorized']);
        expect(String(answer.headers['www-authenticate'])).toMatch(/^Bearer /);
      }
    }
  });

  it('refuses a token without invoices:read with 403 forbidden, as the service', async () => {
    for (const [method, path, body] of [
      ['GET', `/api/v1/invoices/${invoiceId}`, undefined],
      ['POST', '/api/v1/invoices/search', {}],
    ] as const) {
      const answers = await both(method, path, withoutScope, body);
      for (const answer of answers) expect([answer.status, answer.body['error']], `${method} ${path}`).toEqual([403, 'forbidden']);
    }
  });

  it('refuses a malformed search with 400 invalid_request naming the field, as the service', async () => {
    const answers = await both('POST', '/api/v1/invoices/search', token, { limit: 'ten' });
    for (const answer of answers) {
      expect([answer.status, answer.body['error']]).toEqual([400, 'invalid_request']);
      expect((answer.body['details'] as { field: string }).field).toBe('limit');
    }
  });

  it('sends the rate limit headers on every answer, as the service', async () => {
    const answers = await both('GET', `/api/v1/invoices/${invoiceId}`, token);
    for (const answer of answers) {
      expect(answer.headers['ratelimit-policy']).toBeDefined();
      expect(answer.headers['ratelimit']).toBeDefined();
      expect(answer.headers['x-request-id']).toBeDefined();
    }
  });
});
