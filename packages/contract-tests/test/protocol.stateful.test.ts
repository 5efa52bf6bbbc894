// The HTTP edges of the real service: tokens, body parsing, sizes, unknown paths and methods, and
// the request id, each answered with the Error object. Sent raw where a typed client cannot
// express the request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { mintDevToken } from '@invoice-api/server/dev-token';
import { clientFor, rawRequest, tokenFor } from '../src/clients.js';
import { directTargets, errorOf, statefulTargets } from '../src/stateful.js';
import { validCall } from '../src/valid-calls.js';

const foreignKeyDir = mkdtempSync(join(tmpdir(), 'contract-foreign-key-'));
afterAll(() => rmSync(foreignKeyDir, { recursive: true, force: true }));
const json = { 'Content-Type': 'application/json' };
const securedOperations = (Object.keys(operationTable) as OperationId[]).filter((id) => operationTable[id].authenticated);
const oversized = JSON.stringify({ criteria: [{ field: 'description', operator: 'like', value: 'x'.repeat(1024 * 1024 + 10) }] });

describe.each(statefulTargets())('$name: protocol', (target) => {
  it.each(securedOperations)('%s with a token lacking its scope is 403 forbidden naming the scope', async (operationId) => {
    // Scope is checked before the body and before existence, so the valid-looking call is enough.
    const api = await clientFor(target, { scopes: [] });
    const result = await validCall(operationId)(api);
    expect(result.status).toBe(403);
    expect(errorOf(result)).toMatchObject({ error: 'forbidden' });
    const [scope] = operationTable[operationId].scopes;
    expect(result.response.headers.get('WWW-Authenticate')).toContain(`scope="${scope}"`);
  });

  it('an expired token, and one signed with another key, are 401 invalid_token', async () => {
    const expired = await clientFor(target, { ttlSeconds: -120 });
    const foreign = await mintDevToken({ keyFile: join(foreignKeyDir, 'key.json') });
    const strangers = await rawRequest(target, 'GET', '/api/v1/users', { token: foreign });
    const late = await expired.listUsers();
    expect([late.status, errorOf(late).error]).toEqual([401, 'unauthorized']);
    expect(late.response.headers.get('WWW-Authenticate')).toContain('invalid_token');
    expect(strangers.status).toBe(401);
    expect(strangers.body).toMatchObject({ error: 'unauthorized' });
  });

  it('a bad token wins over an oversized body: 401, not 413', async () => {
    const tooLarge = await rawRequest(target, 'POST', '/api/v1/invoices/search', { token: 'not-a-jwt', headers: json, body: oversized });
    expect(tooLarge.status).toBe(401);
    expect(tooLarge.body).toMatchObject({ error: 'unauthorized' });
  });

  it('a body over 1 MiB is 413 payload_too_large', async () => {
    const token = await tokenFor(target);
    const tooLarge = await rawRequest(target, 'POST', '/api/v1/invoices/search', { token, headers: json, body: oversized });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ error: 'payload_too_large' });
  });

  it('a path id that is not a positive integer is 400 naming the parameter', async () => {
    const token = await tokenFor(target);
    for (const [path, field] of [
      ['/api/v1/invoices/abc', 'invoice_id'],
      ['/2.0/delivery/0', 'delivery_id'],
      ['/api/v1/users/-3', 'user_id'],
    ] as const) {
      const result = await rawRequest(target, 'GET', path, { token });
      expect([path, result.status]).toEqual([path, 400]);
      expect(result.body).toMatchObject({ error: 'invalid_request', details: { field } });
    }
  });

  it('an unknown path is 404 not_found; a known path with another method is 405 with Allow', async () => {
    const token = await tokenFor(target);
    const unknown = await rawRequest(target, 'GET', '/api/v1/nothing-here', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'not_found' });
    const wrongMethod = await rawRequest(target, 'PUT', '/api/v1/invoices/search', { token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toMatchObject({ error: 'method_not_allowed' });
    expect(wrongMethod.headers.get('Allow')).toContain('POST');
  });

  it("echoes the caller's X-Request-Id and makes one when there is none", async () => {
    const api = await clientFor(target);
    const echoed = await api.listUsers({ requestId: 'contract-suite-1234' });
    expect(echoed.response.headers.get('X-Request-Id')).toBe('contract-suite-1234');
    const token = await tokenFor(target);
    const made = await rawRequest(target, 'GET', '/api/v1/users', { token });
    expect(made.headers.get('X-Request-Id')).toMatch(/^[\x21-\x7e]{1,128}$/);
  });

  it('every limited answer carries RateLimit and RateLimit-Policy', async () => {
    const api = await clientFor(target);
    const result = await api.searchInvoices({ limit: 1 });
    expect(result.response.headers.get('RateLimit-Policy')).toBeTruthy();
    expect(result.response.headers.get('RateLimit')).toBeTruthy();
  });
});

// Only without Prism in front: Prism answers malformed JSON itself (see directTargets).
describe.each(directTargets())('$name: unparseable bodies', (target) => {
  it('malformed JSON is 400 invalid_request', async () => {
    const token = await tokenFor(target);
    const malformed = await rawRequest(target, 'POST', '/api/v1/invoices/search', { token, headers: json, body: '{"limit": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
  });

  it('a bad token wins over a malformed body: 401, not 400', async () => {
    const malformed = await rawRequest(target, 'POST', '/api/v1/invoices/search', { token: 'not-a-jwt', headers: json, body: '{"limit": ' });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ error: 'unauthorized' });
  });
});
