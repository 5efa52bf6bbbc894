// The client generator on a small operation table: signatures, JSDoc and the request each function
// sends, for the shapes the real spec does not have yet (two path parameters, a required query,
// a deprecated operation, a description that would close the comment).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '@invoice-api/contract';
import { argumentName, clientOperationsModule } from '../../../scripts/lib/generate-client.mjs';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';

const entry = {
  operationId: 'getLine',
  method: 'GET',
  path: '/orders/{order_id}/lines/{line_id}',
  summary: 'Get an order line',
  description: 'Returns one line.\nA comment end */ stays inside the comment.',
  deprecated: true,
  scopes: ['orders:read'],
  pathParams: [
    { name: 'line_id', segment: 4 },
    { name: 'order_id', segment: 2 },
  ],
  queryParams: [{ name: 'expand', required: true }],
  body: null,
};

describe('clientOperationsModule', () => {
  const source = clientOperationsModule({ getLine: entry });

  it('takes path parameters in path order, camelCased, then the query (required when a parameter is), then options', () => {
    expect(source).toContain(
      "getLine: (orderId: PathParameter<'getLine', 'order_id'>, lineId: PathParameter<'getLine', 'line_id'>, query: QueryParams<'getLine'>, opts?: CallOptions): Promise<ApiResult<'getLine'>>",
    );
    expect(source).toContain("raw.GET('/orders/{order_id}/lines/{line_id}', { ...init, params: { path: { order_id: orderId, line_id: lineId }, query } })");
  });

  it('writes the summary, the description, the route and @deprecated into JSDoc, with a comment end escaped', () => {
    expect(source).toMatch(/\/\*\*\n {5}\* Get an order line\n {5}\*\n {5}\* Returns one line\.\n {5}\* A comment end \*\\\/ stays inside the comment\./);
    expect(source).toContain('* `GET /orders/{order_id}/lines/{line_id}` (scope `orders:read`)');
    expect(source).toContain('* @deprecated');
  });

  it('makes an optional body optional and sends none when it is left out', () => {
    const withBody = clientOperationsModule({
      addNote: {
        ...entry,
        operationId: 'addNote',
        method: 'POST',
        path: '/notes',
        deprecated: false,
        pathParams: [],
        queryParams: [],
        body: { required: false },
      },
    });
    expect(withBody).toContain("addNote: (body?: RequestBody<'addNote'>, opts?: CallOptions)");
    expect(withBody).toContain('...(body === undefined ? {} : { body })');
    expect(withBody).not.toContain('@deprecated');
  });

  it('names arguments in camelCase', () => {
    expect(argumentName('invoice_id')).toBe('invoiceId');
    expect(argumentName('company-client_id')).toBe('companyClientId');
  });
});

describe('header options from the header parameters', () => {
  const post = { ...entry, method: 'POST', path: '/orders', deprecated: false, pathParams: [], queryParams: [], body: { required: true } };

  it('gives an operation declaring Idempotency-Key the idempotencyKey option and tells the transport the header name', () => {
    const source = clientOperationsModule({
      placeOrder: {
        ...post,
        operationId: 'placeOrder',
        headerParams: [
          { name: 'Idempotency-Key', required: false },
          { name: 'X-Request-Id', required: false },
        ],
      },
    });
    expect(source).toContain("placeOrder: (body: RequestBody<'placeOrder'>, opts?: CallOptions & IdempotencyKeyOption)");
    expect(source).toContain("raw.POST('/orders', { ...init, body }), { idempotencyKey: 'Idempotency-Key' })");
    expect(source).toContain("import type { CallOptions, IdempotencyKeyOption, Invoke } from '../src/transport.js';");
  });

  it('makes the options required when the spec requires If-Match, but never for a required Idempotency-Key, which the transport makes', () => {
    const source = clientOperationsModule({
      replaceOrder: {
        ...post,
        operationId: 'replaceOrder',
        headerParams: [
          { name: 'idempotency-key', required: true },
          { name: 'If-Match', required: true },
        ],
      },
    });
    expect(source).toContain("replaceOrder: (body: RequestBody<'replaceOrder'>, opts: CallOptions & IdempotencyKeyOption & Required<IfMatchOption>)");
    expect(source).toContain("{ idempotencyKey: 'idempotency-key', ifMatch: 'If-Match' })");
  });

  it('leaves other headers to `headers` and imports no option type nobody uses', () => {
    const source = clientOperationsModule({
      getLine: {
        ...entry,
        headerParams: [
          { name: 'X-Request-Id', required: false },
          { name: 'X-Tenant', required: false },
        ],
      },
    });
    expect(source).toContain("query: QueryParams<'getLine'>, opts?: CallOptions)");
    expect(source).toContain('query } })),');
    expect(source).toContain("import type { CallOptions, Invoke } from '../src/transport.js';");
  });

  it('follows the spec: an Idempotency-Key added to updateInvoice makes it a keyed write after generate', () => {
    const spec = structuredClone(loadSpec());
    const update = spec.paths['/api/v1/invoices/{invoice_id}']?.patch as { parameters: unknown[] };
    update.parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
    const source = clientOperationsModule(buildTable(spec));
    expect(source).toMatch(/updateInvoice: \(.*opts\?: CallOptions & IfMatchOption & IdempotencyKeyOption\)/);
    expect(source).toContain("{ ifMatch: 'If-Match', idempotencyKey: 'Idempotency-Key' }");
  });
});

describe('the generated file', () => {
  const path = new URL('../generated/operations.ts', import.meta.url);

  it('carries the GENERATED header and is ignored by git', () => {
    expect(readFileSync(path, 'utf8').startsWith('// GENERATED by scripts/generate.mjs')).toBe(true);
    const ignored = execFileSync('git', ['check-ignore', 'packages/client/generated/operations.ts'], {
      cwd: new URL('../../..', import.meta.url),
      encoding: 'utf8',
    });
    expect(ignored.trim()).toBe('packages/client/generated/operations.ts');
  });
});
