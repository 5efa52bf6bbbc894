// The operation is resolved once: operation-resolver.ts matches method and path, and every later step
// reads the entry it attached. The router calls a handler by that entry's operationId (it matches no
// path), and the one scope check (requireScopes; the validator's security step is off) holds for every
// operation of the table.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/context.js';
import { operationRouter } from '../../src/http/router.js';
import { productContract } from '../../src/http/served-contract.js';
import { useTestDatabase } from '../support/databases.js';
import { stubHandlers } from './support/handlers.js';
import { startTestService, token, type TestService } from './support/service.js';

const searchPath = operationTable.searchInvoices.path;

async function listen(app: express.Express): Promise<{ url: string; server: Server }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the router', () => {
  let url: string;
  let server: Server;
  const called: string[] = [];
  const productRouting = { operations: productContract.operations, validators: productContract.responseValidators };

  beforeAll(async () => {
    const handlers = stubHandlers({
      searchInvoices: async () => {
        called.push('searchInvoices');
        return { status: 200, body: { data: [], pagination: { total: 0, limit: 50, offset: 0, has_more: false } } };
      },
    });
    const app = express();
    // Stands in for the resolver: attaches the search operation whatever the path says.
    app.use((req, res, next) => {
      if (req.path !== '/unresolved') res.locals.operation = operationTable.searchInvoices;
      next();
    });
    app.use(operationRouter(handlers, () => ({}) as RequestContext, { ...productRouting, checkAnswers: false }));
    app.use((_req, res) => {
      res.status(418).end();
    });
    ({ url, server } = await listen(app));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('calls the handler of the attached operation without matching the path again', async () => {
    const response = await fetch(`${url}/a/path/the/spec/does/not/have`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(called).toEqual(['searchInvoices']);
  });

  it('passes a request with no attached operation on', async () => {
    expect((await fetch(`${url}/unresolved`)).status).toBe(418);
  });
});

describe('one match of the path per request', () => {
  const database = useTestDatabase('postgres', { name: 'http_dispatch' });
  let service: TestService;
  let bearer: string;

  beforeAll(async () => {
    service = await startTestService({ database: database() });
    bearer = await token();
  });
  afterAll(() => service?.close());

  it('matches a search request to a pattern once in the service, whatever the validator does inside', async () => {
    // Every regular expression that matched the whole request path, outside the validator library
    // (which looks the operation up on its own). The old express Router matched it a second time.
    // RegExp.prototype.test calls `exec`, so counting there sees both.
    const matches: string[] = [];
    const originalExec = RegExp.prototype.exec;
    const originalLimit = Error.stackTraceLimit;
    const record = (pattern: RegExp, input: string, matched: string | undefined): void => {
      if (input !== searchPath || matched !== input) return;
      // The code that asked for the match: the first frame outside this file and outside native code.
      const caller =
        (new Error().stack ?? '')
          .split('\n')
          .slice(1)
          .find((frame) => !frame.includes('operation-dispatch.test') && !frame.includes('<anonymous>')) ?? '';
      // Node's own URL parsing is not a lookup of the operation.
      if (!caller.includes('express-openapi-validator') && !caller.includes('(node:')) matches.push(`${pattern.source} ${caller.trim()}`);
    };
    Error.stackTraceLimit = 100;
    RegExp.prototype.exec = function (this: RegExp, input: string) {
      const result = originalExec.call(this, input);
      record(this, input, result?.[0]);
      return result;
    };
    let status: number;
    try {
      const response = await fetch(`${service.url}${searchPath}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 5 }),
      });
      status = response.status;
      await response.arrayBuffer();
    } finally {
      RegExp.prototype.exec = originalExec;
      Error.stackTraceLimit = originalLimit;
    }
    expect(status).toBe(200);
    expect(matches, JSON.stringify(matches)).toHaveLength(1);
  });
});

describe('scopes, checked once', () => {
  const database = useTestDatabase('postgres', { name: 'http_scopes' });
  let service: TestService;
  const allScopes = [...new Set(Object.values(operationTable).flatMap((operation) => [...operation.scopes]))];
  const secured = (Object.keys(operationTable) as OperationId[]).filter((operationId) => operationTable[operationId].authenticated);

  beforeAll(async () => {
    service = await startTestService({ database: database() });
  });
  afterAll(() => service?.close());

  function requestFor(operationId: OperationId, bearer: string): Promise<Response> {
    const operation = operationTable[operationId];
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
    const withBody = operation.body !== null;
    if (withBody) headers['content-type'] = 'application/json';
    return fetch(`${service.url}${operation.path.replace(/\{[^}]+\}/g, '1')}`, { method: operation.method, headers, ...(withBody ? { body: '{}' } : {}) });
  }

  it.each(secured)('%s answers 403 without its scope, and passes the scope check with only its scope', async (operationId) => {
    const required: readonly string[] = operationTable[operationId].scopes;
    const without = await requestFor(operationId, await token({ scopes: allScopes.filter((scope) => !required.includes(scope)) }));
    expect(without.status).toBe(403);
    expect(without.headers.get('www-authenticate')).toBe(`Bearer realm="invoice-api", error="insufficient_scope", scope="${required.join(' ')}"`);
    const withOnly = await requestFor(operationId, await token({ scopes: [...required] }));
    await withOnly.arrayBuffer();
    expect(withOnly.status).not.toBe(403);
    expect(withOnly.status).not.toBe(401);
  });
});
