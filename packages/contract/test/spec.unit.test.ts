// The bundled spec states every decision of the product: these tests read it as a client would.
import { describe, expect, it } from 'vitest';
import { loadSpec, operationTable, searchRules } from '../src/index.js';

const spec = loadSpec();

type OperationObject = {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: { $ref?: string } }> }>;
};

const decided: Array<[string, string, string, string[], string, string]> = [
  // operationId, method, path, scopes, success status, success schema
  ['searchInvoices', 'post', '/api/v1/invoices/search', ['invoices:read'], '200', 'InvoiceSearchResult'],
  ['getInvoice', 'get', '/api/v1/invoices/{invoice_id}', ['invoices:read'], '200', 'InvoiceEnvelope'],
  ['createInvoice', 'post', '/api/v1/invoices', ['invoices:write'], '201', 'InvoiceEnvelope'],
  ['updateInvoice', 'patch', '/api/v1/invoices/{invoice_id}', ['invoices:write'], '200', 'InvoiceEnvelope'],
  ['listUsers', 'get', '/api/v1/users', ['users:read'], '200', 'UserList'],
  ['getUser', 'get', '/api/v1/users/{user_id}', ['users:read'], '200', 'UserEnvelope'],
  ['listCompanyClients', 'get', '/api/v1/company_clients', ['clients:read'], '200', 'CompanyClientList'],
  ['getCompanyClient', 'get', '/api/v1/company_clients/{client_id}', ['clients:read'], '200', 'CompanyClientEnvelope'],
  ['createDelivery', 'post', '/2.0/delivery', ['deliveries:write'], '201', 'DeliveryEnvelope'],
  ['listDeliveries', 'get', '/2.0/delivery', ['deliveries:read'], '200', 'DeliveryList'],
  ['getDelivery', 'get', '/2.0/delivery/{delivery_id}', ['deliveries:read'], '200', 'DeliveryEnvelope'],
  ['updateDelivery', 'patch', '/2.0/delivery/{delivery_id}', ['deliveries:write'], '200', 'DeliveryEnvelope'],
  ['issueDelivery', 'post', '/2.0/delivery/issue', ['deliveries:write'], '200', 'Delivery'],
  ['getHealth', 'get', '/healthz', [], '200', 'Health'],
];

/** Operations added since the decisions table (issue #33): a removal answers 204 with no body. */
const removals: Array<[string, string, string[]]> = [
  ['deleteInvoice', '/api/v1/invoices/{invoice_id}', ['invoices:write']],
  ['deleteDelivery', '/2.0/delivery/{delivery_id}', ['deliveries:write']],
];

/** The business documents of issue #33: an operation, its media types per status, and its scopes. */
const documents: Array<[string, string, string, string[], Record<string, string[]>]> = [
  ['getInvoicePdf', 'get', '/api/v1/invoices/{invoice_id}/pdf', ['invoices:read'], { '200': ['application/pdf'], '304': [] }],
  ['exportInvoices', 'post', '/api/v1/invoices/export', ['invoices:read'], { '200': ['text/csv'] }],
  ['uploadInvoiceAttachment', 'post', '/api/v1/invoices/{invoice_id}/attachments', ['invoices:write'], { '201': ['application/json'] }],
  ['listInvoiceAttachments', 'get', '/api/v1/invoices/{invoice_id}/attachments', ['invoices:read'], { '200': ['application/json'] }],
  [
    'getInvoiceAttachment',
    'get',
    '/api/v1/invoices/{invoice_id}/attachments/{attachment_id}',
    ['invoices:read'],
    { '200': ['application/pdf', 'image/png', 'image/jpeg'] },
  ],
  ['deleteInvoiceAttachment', 'delete', '/api/v1/invoices/{invoice_id}/attachments/{attachment_id}', ['invoices:write'], { '204': [] }],
];

function operation(path: string, method: string): OperationObject {
  const item = spec.paths[path];
  if (!item) throw new Error(`no path ${path}`);
  return item[method] as OperationObject;
}

function schemaProperties(name: string): Record<string, unknown> {
  const schema = spec.components['schemas']?.[name] as { properties: Record<string, unknown> };
  return schema.properties;
}

describe('the bundled spec', () => {
  it('is OpenAPI 3.1.x with the 2020-12 dialect', () => {
    expect(spec.openapi).toMatch(/^3\.1\.\d+$/);
    expect(spec['jsonSchemaDialect']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('has exactly the 14 operations of the decisions table, the two removals and the business documents', () => {
    const found = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method} ${path} ${(op as OperationObject).operationId}`),
    );
    const expected = [
      ...decided.map(([id, method, path]) => `${method} ${path} ${id}`),
      ...removals.map(([id, path]) => `delete ${path} ${id}`),
      ...documents.map(([id, method, path]) => `${method} ${path} ${id}`),
    ];
    expect(found.sort()).toEqual(expected.sort());
  });

  it.each(removals)('%s: DELETE %s needs %j and answers 204 without a body', (operationId, path, scopes) => {
    const op = operation(path, 'delete');
    expect(op.operationId).toBe(operationId);
    expect(op.security).toEqual([{ oauth2: scopes }]);
    expect(op.responses['204']).toBeDefined();
    expect(op.responses['204']?.content).toBeUndefined();
  });

  it.each(documents)('%s: %s %s needs %j and answers its successes in the media types %j', (operationId, method, path, scopes, successes) => {
    const op = operation(path, method);
    expect(op.operationId).toBe(operationId);
    expect(op.security).toEqual([{ oauth2: scopes }]);
    const documented = Object.fromEntries(
      Object.entries(operationTable[operationId as keyof typeof operationTable].responseMedia as Record<string, ReadonlyArray<{ mediaType: string }>>)
        .filter(([status]) => Number(status) < 400)
        .map(([status, media]) => [status, media.map((entry) => entry.mediaType)]),
    );
    expect(documented).toEqual(successes);
  });

  it.each(decided)('%s: %s %s needs %j and answers %s with %s', (operationId, method, path, scopes, status, schema) => {
    const op = operation(path, method);
    expect(op.operationId).toBe(operationId);
    expect(op.security).toEqual(scopes.length ? [{ oauth2: scopes }] : []);
    expect(op.responses[status]?.content?.['application/json']?.schema.$ref).toBe(`#/components/schemas/${schema}`);
    expect(operationTable[operationId as keyof typeof operationTable]).toMatchObject({ method: method.toUpperCase(), path, scopes });
  });

  it('uses the envelope keys the decisions name', () => {
    expect(Object.keys(schemaProperties('InvoiceSearchResult'))).toEqual(['data', 'pagination']);
    expect(Object.keys(schemaProperties('InvoiceEnvelope'))).toEqual(['invoice']);
    expect(Object.keys(schemaProperties('UserList'))).toEqual(['users']);
    expect(Object.keys(schemaProperties('UserEnvelope'))).toEqual(['user']);
    expect(Object.keys(schemaProperties('CompanyClientList'))).toEqual(['company_clients']);
    expect(Object.keys(schemaProperties('CompanyClientEnvelope'))).toEqual(['company_client']);
    expect(Object.keys(schemaProperties('DeliveryList'))).toEqual(['deliveries']);
    expect(Object.keys(schemaProperties('DeliveryEnvelope'))).toEqual(['delivery']);
  });

  it('answers every 4xx and 5xx of a secured operation with the Error schema', () => {
    for (const [, method, path, scopes] of decided) {
      if (scopes.length === 0) continue;
      for (const [status, response] of Object.entries(operation(path, method).responses)) {
        if (Number(status) < 400) continue;
        const name = response.$ref?.replace('#/components/responses/', '') ?? '';
        const shared = spec.components['responses']?.[name] as { content: Record<string, { schema: { $ref: string } }> };
        expect(shared.content['application/json']?.schema.$ref, `${path} ${status}`).toBe('#/components/schemas/Error');
      }
    }
  });

  it('keeps the operator table in the SearchCriterion description equal to the rules derived from its oneOf', () => {
    const criterion = spec.components['schemas']?.['SearchCriterion'] as { description: string };
    const rows = criterion.description
      .split('\n')
      .filter((line) => /^\| [a-z_]+ \|/.test(line))
      .map((line) =>
        line
          .split('|')
          .map((cell) => cell.trim())
          .filter(Boolean),
      );
    const fromTable = Object.fromEntries(rows.map(([field, operators, type]) => [field, { type, operators: operators?.split(' ') }]));
    expect(fromTable).toEqual(searchRules.fields);
  });

  it('derives the search allow-list from the spec', () => {
    expect(Object.keys(searchRules.fields).sort()).toEqual(
      (spec.components['schemas']?.['SearchableField'] as { enum: string[] } | undefined)?.enum.slice().sort(),
    );
    expect(searchRules.sortFields).toContain('client_name');
    expect(searchRules.defaults).toEqual({ limit: 50, offset: 0, order_by: 'created_at', order_direction: 'desc' });
    expect(searchRules.maxCriteria).toBe(20);
  });

  it('states the search rules in plain JSON Schema, not in extensions only the service reads', () => {
    const names = Object.keys(spec.components['schemas'] ?? {}).filter((name) => /Criterion$|^Search|^InvoiceSearchRequest$/.test(name));
    const extensions = names.filter((name) => Object.keys(spec.components['schemas']?.[name] as object).some((key) => key.startsWith('x-')));
    expect(names.length).toBeGreaterThan(10);
    expect(extensions).toEqual([]);
  });
});
