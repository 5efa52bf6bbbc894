// The deprecation headers, end to end from the spec: the real spec deprecates nothing, so a scratch copy
// of the bundled spec marks an operation, a query parameter and a request body property deprecated;
// the generator's operation table is built from it (scripts/lib/operation-table.mjs, as `pnpm generate`
// does) and drives the service's own resolver, body parser, deprecation step and error mapper over
// real HTTP. Only the table's source differs from the service: the generated module is the real
// spec's, and compiling a second one would cost a full generate and typecheck for nothing more.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadSpec } from '@invoice-api/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable as buildTable } from '../../../../scripts/lib/operation-table.mjs';
import { ApiError } from '../../src/errors.js';
import { deprecationHeaders, deprecationHeaderValues } from '../../src/http/deprecation.js';
import { errorMapper } from '../../src/http/errors.js';
import { jsonBody } from '../../src/http/json-body.js';
import type { OperationEntry } from '../../src/http/locals.js';
import { compilePaths, resolve } from '../../src/http/operation-resolver.js';
import { productContract } from '../../src/http/served-contract.js';

type Spec = ReturnType<typeof loadSpec>;

function node(spec: Spec, ...keys: string[]): Record<string, unknown> {
  let current: unknown = spec;
  for (const key of keys) current = (current as Record<string, unknown>)[key];
  if (typeof current !== 'object' || current === null) throw new Error(`no ${keys.join('.')} in the spec`);
  return current as Record<string, unknown>;
}

/** The bundled spec with three deprecations: an operation, a query parameter, a request property. */
function deprecatingSpec(): Spec {
  const spec = structuredClone(loadSpec());
  Object.assign(node(spec, 'paths', '/api/v1/users', 'get'), { deprecated: true, 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-06-30' });
  Object.assign(node(spec, 'components', 'parameters', 'offset'), { deprecated: true, 'x-deprecated-since': '2026-10-01', 'x-sunset': '2027-03-31' });
  Object.assign(node(spec, 'components', 'schemas', 'InvoiceSearchRequest', 'properties', 'offset'), {
    deprecated: true,
    'x-deprecated-since': '2026-12-01',
    'x-sunset': '2027-09-30',
  });
  Object.assign(node(spec, 'components', 'schemas', 'InvoiceSearchRequest', 'properties', 'limit'), {
    deprecated: true,
    'x-deprecated-since': '2026-09-01',
    'x-sunset': '2027-12-31',
  });
  return spec;
}

const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

describe('deprecation headers on a service whose operation table comes from a spec that deprecates', () => {
  const table = buildTable(deprecatingSpec());
  let url: string;
  let server: Server;

  beforeAll(async () => {
    // The scratch table's literal types differ from the generated module's; the shape is the same.
    const paths = compilePaths(Object.values(table) as unknown as OperationEntry[]);
    const app = express();
    app.use((req, res, next) => {
      const resolution = resolve(paths, req.method, req.path);
      if (resolution.kind === 'operation') res.locals.operation = resolution.operation;
      next();
    });
    app.use(jsonBody());
    app.use(deprecationHeaders());
    app.use((req, res, next) => {
      if (req.get('x-fail') !== undefined) next(new ApiError(400, 'invalid_request', 'refused on purpose'));
      else res.json({ ok: true });
    });
    app.use(errorMapper({ checkAnswers: true, validators: productContract.responseValidators }));
    server = createServer(app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const headersOf = (response: Response) => ({
    deprecation: response.headers.get('deprecation'),
    sunset: response.headers.get('sunset'),
    link: response.headers.get('link'),
  });
  const search = (body: unknown) =>
    fetch(`${url}/api/v1/invoices/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('the generator records what is deprecated, with its dates and the docs link', () => {
    expect(table.listUsers?.deprecated).toBe(true);
    expect(table.listUsers?.deprecation).toEqual({
      link: '/docs#operation/listUsers',
      operation: { since: '2026-11-01', sunset: '2027-06-30', deprecatedAt: seconds('2026-11-01'), sunsetAt: seconds('2027-06-30') },
      parameters: [],
      requestProperties: [],
    });
    expect(table.listDeliveries?.deprecation?.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(['query offset']);
    expect(table.searchInvoices?.deprecation?.requestProperties.map((property) => property.path.join('.')).sort()).toEqual(['limit', 'offset']);
    expect(table.getInvoice?.deprecation).toBeNull();
  });

  it('a deprecated operation answers Deprecation (RFC 9745), Sunset (RFC 8594) and Link, on a success and on an error', async () => {
    const expected = {
      deprecation: `@${seconds('2026-11-01')}`,
      sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      link: '</docs#operation/listUsers>; rel="deprecation"; type="text/html"',
    };
    const ok = await fetch(`${url}/api/v1/users`);
    expect(ok.status).toBe(200);
    expect(headersOf(ok)).toEqual(expected);
    const refused = await fetch(`${url}/api/v1/users`, { headers: { 'x-fail': '1' } });
    expect(refused.status).toBe(400);
    expect(headersOf(refused)).toEqual(expected);
  });

  it('a deprecated query parameter: the headers only when the request sends it', async () => {
    const used = await fetch(`${url}/2.0/delivery?offset=5`);
    expect(headersOf(used)).toEqual({
      deprecation: `@${seconds('2026-10-01')}`,
      sunset: 'Wed, 31 Mar 2027 00:00:00 GMT',
      link: '</docs#operation/listDeliveries>; rel="deprecation"; type="text/html"',
    });
    expect(headersOf(await fetch(`${url}/2.0/delivery?limit=5`))).toEqual({ deprecation: null, sunset: null, link: null });
  });

  it('deprecated body properties: only when sent; several used announce the earliest of each date', async () => {
    expect(headersOf(await search({ criteria: [] }))).toEqual({ deprecation: null, sunset: null, link: null });
    expect(headersOf(await search({ offset: 10 }))).toMatchObject({ deprecation: `@${seconds('2026-12-01')}`, sunset: 'Thu, 30 Sep 2027 00:00:00 GMT' });
    // limit: deprecated earlier, sunset later; offset: the earlier sunset.
    expect(headersOf(await search({ offset: 10, limit: 5 }))).toMatchObject({
      deprecation: `@${seconds('2026-09-01')}`,
      sunset: 'Thu, 30 Sep 2027 00:00:00 GMT',
    });
  });

  it('an operation with nothing deprecated answers none of them', async () => {
    expect(headersOf(await fetch(`${url}/api/v1/invoices/7`))).toEqual({ deprecation: null, sunset: null, link: null });
  });

  it('formats the dates as the RFCs say: a structured-field Date and an IMF-fixdate', () => {
    const notice = { since: '1970-01-02', sunset: '2000-02-29', deprecatedAt: 86_400, sunsetAt: seconds('2000-02-29') };
    expect(deprecationHeaderValues('/docs#operation/x', [notice])).toEqual({
      Deprecation: '@86400',
      Sunset: 'Tue, 29 Feb 2000 00:00:00 GMT',
      Link: '</docs#operation/x>; rel="deprecation"; type="text/html"',
    });
    expect(deprecationHeaderValues('/docs#operation/x', [])).toBeUndefined();
  });
});
