// Proof that the proxy target can fail: a tiny local server answers getUser, once as the spec says
// and once with a field the spec lacks; behind Prism's validation proxy, the scenario check passes
// the first and rejects the second on its `sl-violations` header.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@invoice-api/client';
import type { User } from '@invoice-api/contract';
import { startPrism, type RunningPrism } from '../../../../scripts/lib/prism.mjs';
import { ContractViolationError, violationCheckingFetch } from '../../src/violations.js';

const user: User = { id: 2, name: 'Luca Rossi', email: 'luca.rossi@muster.example', role: 'accountant', created_at: '2025-02-03T12:30:00.000Z' };

// User 2 as documented; user 3 carries `nickname`, which the closed User schema does not have.
function fakeService(): Server {
  return createServer((request, response) => {
    const body = request.url === '/api/v1/users/3' ? { user: { ...user, id: 3, nickname: 'lu' } } : { user };
    response.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-Id': 'fake-1' });
    response.end(JSON.stringify(body));
  });
}

describe('the proxy target catches a response the spec does not allow', () => {
  let server: Server;
  let proxy: RunningPrism;

  beforeAll(async () => {
    server = fakeService();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = await startPrism({ mode: 'proxy', upstream: `http://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const client = () => createApiClient({ baseUrl: proxy.url, token: 'any', fetch: violationCheckingFetch(), retry: false });

  it('passes an answer that follows the spec', async () => {
    const result = await client().getUser(2);
    expect(result).toMatchObject({ ok: true, data: { user } });
  });

  it('fails the scenario on an undocumented field, naming it', async () => {
    const failure = await client()
      .getUser(3)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ContractViolationError);
    const { violations } = failure as ContractViolationError;
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((violation) => violation.location[0] === 'response')).toBe(true);
    expect(JSON.stringify(violations)).toMatch(/additional propert/i);
  });
});
