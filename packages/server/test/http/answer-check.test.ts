// The service checks its own answers against the spec before sending them (http/answer-check.ts, with
// the validators `pnpm generate` compiles): a handler's answer or an error answer the spec does not
// document is the service's bug, logged with where it breaks the spec and answered as a plain 500.
import type { OperationId } from '@invoice-api/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { writeOnce } from '../../src/idempotency/index.js';
import { answerMismatch } from '../../src/http/answer-check.js';
import { productContract } from '../../src/http/served-contract.js';
import { useTestDatabase } from '../support/databases.js';
import { createAccount } from '../support/fixtures.js';
import { stubHandlers } from './support/handlers.js';
import { capturingLogger, startTestService, token, type TestService } from './support/service.js';

const user = { id: 1, name: 'Ada', email: 'ada@example.com', role: 'admin', created_at: '2026-01-02T03:04:05.000Z' };

describe('answers checked against the spec', () => {
  const database = useTestDatabase('pglite', { name: 'http_answer_check' });
  const handlers = stubHandlers({
    // An undocumented field in a success answer.
    listUsers: async () => ({ status: 200, body: { users: [{ ...user, password_hash: 'x' }] } as never }),
    // An error code the spec's ErrorCode does not list (the service's check keeps that enum closed).
    getUser: async () => {
      throw new ApiError(404, 'user_gone' as never, 'User 1 is gone.');
    },
    // A status the operation does not document.
    listCompanyClients: async () => ({ status: 418 as never, body: { company_clients: [] } }),
    // A keyed write whose answer has an undocumented field: it must not be stored for replays.
    createInvoice: async (_request, context) =>
      writeOnce(context, async () => {
        createCalls += 1;
        return { status: 201 as const, headers: { Location: '/api/v1/invoices/1' }, body: { invoice: { id: 1, secret: 'x' } } as never };
      }),
  });
  let createCalls = 0;
  const captured = capturingLogger();
  let checked: TestService;
  let unchecked: TestService;
  let bearer: string;

  beforeAll(async () => {
    checked = await startTestService({ database: database(), handlers, logger: captured.logger });
    unchecked = await startTestService({ database: database(), handlers, env: { RESPONSE_VALIDATION: 'off' } });
    // The keyed write stores its answer for this account (the stored answer names it).
    const account = await createAccount(database());
    bearer = await token({ accountId: account.accountId });
  });
  afterAll(async () => {
    await checked?.close();
    await unchecked?.close();
  });

  async function call(service: TestService, path: string): Promise<{ status: number; body: Record<string, unknown>; requestId: string }> {
    const response = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, requestId: response.headers.get('x-request-id') ?? '' };
  }

  async function failureLogged(requestId: string): Promise<string> {
    await expect.poll(() => captured.lines().some((line) => line.requestId === requestId && line.err !== undefined)).toBe(true);
    const line = captured.lines().find((entry) => entry.requestId === requestId && entry.err !== undefined);
    return String((line?.err as { message?: string } | undefined)?.message);
  }

  it('answers an undocumented field with 500 and logs its path', async () => {
    const { status, body, requestId } = await call(checked, '/api/v1/users');
    expect(status).toBe(500);
    expect(body).toEqual({ error: 'internal_error', message: expect.stringContaining('X-Request-Id') });
    expect(JSON.stringify(body)).not.toContain('password_hash');
    expect(await failureLogged(requestId)).toBe(
      'listUsers: the 200 answer does not match the spec at $.users[0].password_hash: additionalProperties (not in the spec: password_hash)',
    );
  });

  it('answers an error code the spec does not list with 500', async () => {
    const { status, body, requestId } = await call(checked, '/api/v1/users/1');
    expect(status).toBe(500);
    expect(body.error).toBe('internal_error');
    expect(await failureLogged(requestId)).toMatch(/^getUser: the 404 answer does not match the spec at \$\.error: enum/);
  });

  it('answers a status the operation does not document with 500', async () => {
    const { status, requestId } = await call(checked, '/api/v1/company_clients');
    expect(status).toBe(500);
    expect(await failureLogged(requestId)).toBe(
      'listCompanyClients: the 418 answer does not match the spec at $: status (the spec documents no 418 answer for listCompanyClients)',
    );
  });

  it("leaves the checks before the handler alone: the health check's refusal of a query stays a 400", async () => {
    const response = await fetch(`${checked.url}/healthz?x=1`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('stores no keyed answer the spec does not document: its retry runs again instead of replaying it', async () => {
    const key = `answer-check-${Date.now()}`;
    const again = (body: string) =>
      fetch(`${checked.url}/api/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': key },
        body,
      });
    const body = JSON.stringify({ client_id: 1, amount: 10, currency: 'CHF', due_date: '2026-03-31' });
    const first = await again(body);
    expect(first.status).toBe(500);
    const retry = await again(body);
    expect(retry.status).toBe(500);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(createCalls).toBe(2);
  });

  it('sends what the handler answered when RESPONSE_VALIDATION=off (a benchmark switch)', async () => {
    expect((await call(unchecked, '/api/v1/users')).body).toEqual({ users: [{ ...user, password_hash: 'x' }] });
    expect((await call(unchecked, '/api/v1/users/1')).body).toEqual({ error: 'user_gone', message: 'User 1 is gone.' });
  });

  it('accepts documented answers', () => {
    const { operations, responseValidators } = productContract;
    const operationId: OperationId = 'listUsers';
    expect(answerMismatch(responseValidators, operations[operationId]!, 200, { users: [user] })).toBeUndefined();
    expect(answerMismatch(responseValidators, operations['getHealth']!, 503, { status: 'unavailable' })).toBeUndefined();
    expect(answerMismatch(responseValidators, operations['getInvoice']!, 404, { error: 'not_found', message: 'Invoice 7 not found.' })).toBeUndefined();
  });
});
