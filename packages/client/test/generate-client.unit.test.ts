// The client generator on a small operation table: signatures, JSDoc and the request each function
// sends, for the shapes the real spec does not have yet (two path parameters, a required query,
// a deprecated operation, a description that would close the comment); and on the fixture spec of
// shapes, what each function carries from the table's media facts (how its bodies are read and
// written, how its query is serialized) while the product's JSON operations carry nothing new.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec } from '@invoice-api/contract';
import { argumentName, clientOperationsModule, readPlanOf, writePlanOf } from '../../../scripts/lib/generate-client.mjs';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';

const json = [{ mediaType: 'application/json', kind: 'json' }] as const;
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
  queryParams: [{ name: 'expand', required: true, style: 'form', explode: true, shape: 'scalar' }],
  requestMedia: null,
  responseMedia: { '200': json, '404': json },
};

describe('clientOperationsModule', () => {
  const source = clientOperationsModule({ getLine: entry });

  it('takes path parameters in path order, camelCased, then the query (required when a parameter is), then options', () => {
    expect(source).toContain(
      "getLine: (orderId: ContractPathParameter<Contract, 'getLine', 'order_id'>, lineId: ContractPathParameter<Contract, 'getLine', 'line_id'>, query: ContractQueryParams<Contract, 'getLine'>, opts?: CallOptions): Promise<ContractResult<Contract, 'getLine'>>",
    );
    expect(source).toContain(
      "raw.GET('/orders/{order_id}/lines/{line_id}', { ...init, params: { path: { order_id: orderId, line_id: lineId }, query }, querySerializer: queries.getLine })",
    );
    expect(source).toContain("getLine: querySerializer({ expand: ['form', true] }),");
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
        requestMedia: { required: false, media: json },
      },
    });
    expect(withBody).toContain("addNote: (body?: ContractRequestBody<Contract, 'addNote'>, opts?: CallOptions)");
    expect(withBody).toContain('...(body === undefined ? {} : { body })');
    expect(withBody).not.toContain('@deprecated');
  });

  it('names arguments in camelCase', () => {
    expect(argumentName('invoice_id')).toBe('invoiceId');
    expect(argumentName('company-client_id')).toBe('companyClientId');
  });
});

describe('header options from the header parameters', () => {
  const post = { ...entry, method: 'POST', path: '/orders', deprecated: false, pathParams: [], queryParams: [], requestMedia: { required: true, media: json } };

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
    expect(source).toContain("placeOrder: (body: ContractRequestBody<Contract, 'placeOrder'>, opts?: CallOptions & IdempotencyKeyOption)");
    expect(source).toContain("raw.POST('/orders', { ...init, body }), callPlans.placeOrder)");
    expect(source).toContain("placeOrder: { idempotencyKey: 'Idempotency-Key' },");
    expect(source).toContain("import type { CallOptions, CallPlan, IdempotencyKeyOption, Invoke } from '../src/transport.js';");
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
    expect(source).toContain(
      "replaceOrder: (body: ContractRequestBody<Contract, 'replaceOrder'>, opts: CallOptions & IdempotencyKeyOption & Required<IfMatchOption>)",
    );
    expect(source).toContain("replaceOrder: { idempotencyKey: 'idempotency-key', ifMatch: 'If-Match' },");
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
    expect(source).toContain("query: ContractQueryParams<Contract, 'getLine'>, opts?: CallOptions)");
    expect(source).toContain('querySerializer: queries.getLine })),');
    expect(source).toContain("import type { CallOptions, Invoke } from '../src/transport.js';");
  });

  it('follows the spec: an Idempotency-Key added to updateInvoice makes it a keyed write after generate', () => {
    const spec = structuredClone(loadSpec());
    const update = spec.paths['/api/v1/invoices/{invoice_id}']?.patch as { parameters: unknown[] };
    update.parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
    const source = clientOperationsModule(buildTable(spec));
    expect(source).toMatch(/updateInvoice: \(.*opts\?: CallOptions & IfMatchOption & IdempotencyKeyOption\)/);
    expect(source).toContain("updateInvoice: { ifMatch: 'If-Match', idempotencyKey: 'Idempotency-Key' },");
  });
});

describe('bodies that are not JSON, from the table’s media facts', () => {
  const shapesSpec = parse(readFileSync(fileURLToPath(new URL('../../contract/test/fixtures/shapes/openapi.yaml', import.meta.url)), 'utf8'));
  const shapes = buildTable(shapesSpec);
  const source = clientOperationsModule(shapes);

  it('gives each operation whose success is not one JSON body a read plan: each status’s media types and kinds', () => {
    expect(readPlanOf(shapes.downloadReport!)).toEqual({ '200': [['application/pdf', 'bytes']] });
    expect(readPlanOf(shapes.streamLog!)).toEqual({ '200': [['text/plain', 'text']] });
    expect(readPlanOf(shapes.removeReport!)).toEqual({ '204': [] });
    expect(readPlanOf(shapes.exportReports!)).toEqual({
      '200': [
        ['application/json', 'json'],
        ['text/csv', 'text'],
      ],
    });
    expect(readPlanOf(shapes.listThings!)).toBeUndefined();
    expect(source).toContain("downloadReport: { read: { '200': [['application/pdf', 'bytes']] } },");
  });

  it('gives each body that is not JSON a write plan: its media type, and a multipart body’s file parts', () => {
    expect(writePlanOf(shapes.uploadDocument!)).toEqual([{ mediaType: 'multipart/form-data', kind: 'multipart', files: { file: '' } }]);
    expect(writePlanOf(shapes.uploadPair!)).toEqual([
      { mediaType: 'multipart/form-data', kind: 'multipart', files: { front: 'image/png', back: 'image/png' } },
    ]);
    expect(writePlanOf(shapes.postNote!)).toEqual([{ mediaType: 'text/plain', kind: 'text' }]);
    expect(source).toContain("(init, wire) => raw.POST('/documents', { ...init, body: wire }), callPlans.uploadDocument, body)");
  });

  it('makes a function whose answer can be a stream or one of several media types generic in its options', () => {
    expect(source).toContain(
      "downloadReport: <O extends CallOptions & StreamOption = object>(reportId: ContractPathParameter<Contract, 'downloadReport', 'report_id'>, opts?: O): Promise<ContractResult<Contract, 'downloadReport', O>>",
    );
    expect(source).toContain("exportReports: <O extends CallOptions & StreamOption & AcceptOption<'application/json' | 'text/csv'> = object>(opts?: O)");
    expect(source).toContain("removeReport: (reportId: ContractPathParameter<Contract, 'removeReport', 'report_id'>, opts?: CallOptions)");
  });

  it('writes each query parameter’s style and explode for its serializer', () => {
    expect(source).toContain("listThings: querySerializer({ status: ['form', true], tags: ['form', false], filter: ['deepObject', true] }),");
  });

  it('writes the table’s media facts out as the type the contract reads', () => {
    expect(source).toContain(
      "streamLog: { readonly requestMedia: null; readonly responseMedia: { readonly '200': readonly [{ readonly mediaType: 'text/plain'; readonly kind: 'text'; readonly charset: 'utf-8' }]",
    );
    expect(source).toContain('export interface Contract {\n  readonly operations: operations;\n  readonly table: OperationMedia;\n}');
  });

  it('carries an Idempotency-Key of a multipart write beside its write plan', () => {
    const keyed = structuredClone(shapesSpec);
    keyed.paths['/documents'].post.parameters = [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }];
    const text = clientOperationsModule(buildTable(keyed));
    expect(text).toContain("uploadDocument: (body: ContractRequestBody<Contract, 'uploadDocument'>, opts?: CallOptions & IdempotencyKeyOption)");
    expect(text).toContain(
      "uploadDocument: { idempotencyKey: 'Idempotency-Key', write: [{ mediaType: 'multipart/form-data', kind: 'multipart', files: { file: '' } }] },",
    );
  });

  it('plans exactly the product’s operations that are not JSON in and out; openapi-fetch reads the others’ JSON', () => {
    const product = clientOperationsModule(buildTable(loadSpec()));
    // The removals' 204, the PDF, the CSV export and the attachments: their plans read or write them.
    const plans = product.split('\n').filter((line) => /read: |write: /.test(line));
    expect(plans.map((line) => line.trim())).toEqual([
      "exportInvoices: { read: { '200': [['text/csv', 'text']] } },",
      "deleteInvoice: { ifMatch: 'If-Match', read: { '204': [] } },",
      "getInvoicePdf: { read: { '200': [['application/pdf', 'bytes']], '304': [] } },",
      "uploadInvoiceAttachment: { idempotencyKey: 'Idempotency-Key', write: [{ mediaType: 'multipart/form-data', kind: 'multipart', files: { file: '' } }] },",
      "getInvoiceAttachment: { read: { '200': [['application/pdf', 'bytes'], ['image/png', 'bytes'], ['image/jpeg', 'bytes']] } },",
      "deleteInvoiceAttachment: { read: { '204': [] } },",
      "deleteDelivery: { ifMatch: 'If-Match', read: { '204': [] } },",
    ]);
    expect(product).toContain(
      "call<Contract, 'getInvoice'>('getInvoice', opts, (init) => raw.GET('/api/v1/invoices/{invoice_id}', { ...init, params: { path: { invoice_id: invoiceId } } }))",
    );
    expect(product).toMatch(/getInvoiceAttachment: <O extends CallOptions & StreamOption & AcceptOption<'application\/pdf' \| 'image\/png' \| 'image\/jpeg'>/);
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
