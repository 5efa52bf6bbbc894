// The query options generator's reading of `x-invalidates`: what the spec declares for each write,
// and the spec mistakes it refuses at generate time (the compiler then checks each pointer's type,
// which the type tests cover through the generated module).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec, type OpenApiDocument } from '@invoice-api/contract';
import { invalidationTable, isRead, queryOptionsModule } from '../../../scripts/lib/generate-query.mjs';
import { pagingTable } from '../../../scripts/lib/generate-paging.mjs';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';

type Operation = Record<string, unknown>;

/** The bundled spec with one change to the operation `operationId`. */
function specWith(operationId: string, change: (operation: Operation) => void): OpenApiDocument {
  const spec = structuredClone(loadSpec());
  for (const pathItem of Object.values(spec.paths ?? {}) as Record<string, Operation>[]) {
    for (const operation of Object.values(pathItem)) {
      if (operation.operationId === operationId) change(operation);
    }
  }
  return spec;
}

const invalidations = (spec: OpenApiDocument) => invalidationTable(spec, buildTable(spec));

describe('x-invalidates', () => {
  it('turns each write’s declaration into keys over the mutation’s variables and answer', () => {
    expect(invalidations(loadSpec())).toEqual({
      createInvoice: [
        { operationId: 'searchInvoices', parameters: null },
        { operationId: 'getInvoice', parameters: { invoice_id: 'data.invoice.id' } },
        { operationId: 'exportInvoices', parameters: null },
      ],
      updateInvoice: [
        { operationId: 'searchInvoices', parameters: null },
        { operationId: 'getInvoice', parameters: { invoice_id: 'variables.path.invoice_id' } },
        { operationId: 'exportInvoices', parameters: null },
        { operationId: 'getInvoicePdf', parameters: { invoice_id: 'variables.path.invoice_id' } },
      ],
      deleteInvoice: [
        { operationId: 'searchInvoices', parameters: null },
        { operationId: 'getInvoice', parameters: { invoice_id: 'variables.path.invoice_id' } },
        { operationId: 'exportInvoices', parameters: null },
        { operationId: 'getInvoicePdf', parameters: { invoice_id: 'variables.path.invoice_id' } },
        { operationId: 'listInvoiceAttachments', parameters: { invoice_id: 'variables.path.invoice_id' } },
      ],
      uploadInvoiceAttachment: [{ operationId: 'listInvoiceAttachments', parameters: { invoice_id: 'variables.path.invoice_id' } }],
      deleteInvoiceAttachment: [
        { operationId: 'listInvoiceAttachments', parameters: { invoice_id: 'variables.path.invoice_id' } },
        { operationId: 'getInvoiceAttachment', parameters: { invoice_id: 'variables.path.invoice_id', attachment_id: 'variables.path.attachment_id' } },
      ],
      createDelivery: [
        { operationId: 'listDeliveries', parameters: null },
        { operationId: 'getDelivery', parameters: { delivery_id: 'data.delivery.id' } },
      ],
      issueDelivery: [
        { operationId: 'listDeliveries', parameters: null },
        { operationId: 'getDelivery', parameters: { delivery_id: 'variables.body.delivery_id' } },
      ],
      updateDelivery: [
        { operationId: 'listDeliveries', parameters: null },
        { operationId: 'getDelivery', parameters: { delivery_id: 'variables.path.delivery_id' } },
      ],
      deleteDelivery: [
        { operationId: 'listDeliveries', parameters: null },
        { operationId: 'getDelivery', parameters: { delivery_id: 'variables.path.delivery_id' } },
      ],
    });
  });

  it('takes the search, a POST that only reads, for a read: it gets query options, not a mutation', () => {
    const table = buildTable(loadSpec());
    expect(isRead(table.searchInvoices!)).toBe(true);
    expect(isRead(table.exportInvoices!)).toBe(true);
    expect(isRead(table.createInvoice!)).toBe(false);
    const source = queryOptionsModule(loadSpec(), table, pagingTable(loadSpec()), '');
    expect(source).toContain('searchInvoicesInfiniteOptions:');
    expect(source).not.toContain('searchInvoicesMutation');
  });

  it.each([
    ['a write without it', 'issueDelivery', (operation: Operation) => delete operation['x-invalidates'], /issueDelivery is a write: it needs x-invalidates/],
    [
      'a read with it',
      'getInvoice',
      (operation: Operation) => (operation['x-invalidates'] = [{ operationId: 'searchInvoices' }]),
      /a read makes nothing stale/,
    ],
    [
      'an unknown operation',
      'createInvoice',
      (operation: Operation) => (operation['x-invalidates'] = [{ operationId: 'listInvoices' }]),
      /createInvoice x-invalidates\[0\]: no operation listInvoices/,
    ],
    [
      'a write as the target',
      'createInvoice',
      (operation: Operation) => (operation['x-invalidates'] = [{ operationId: 'updateInvoice' }]),
      /updateInvoice is not a read/,
    ],
    [
      'parameters that are not the read’s path parameters',
      'updateInvoice',
      (operation: Operation) => (operation['x-invalidates'] = [{ operationId: 'getInvoice', parameters: { id: '$request.path.invoice_id' } }]),
      /parameters must be exactly getInvoice's path parameters \(invoice_id\), got id/,
    ],
    [
      'a path parameter the write does not have',
      'createInvoice',
      (operation: Operation) => (operation['x-invalidates'] = [{ operationId: 'getInvoice', parameters: { invoice_id: '$request.path.invoice_id' } }]),
      /names a path parameter createInvoice does not have/,
    ],
    [
      'an expression of another kind',
      'updateInvoice',
      (operation: Operation) => (operation['x-invalidates'] = [{ operationId: 'getInvoice', parameters: { invoice_id: '$request.header.If-Match' } }]),
      /is not one of \$request\.path\.<name>, \$request\.body#\/<pointer>, \$response\.body#\/<pointer>/,
    ],
  ])('refuses %s', (_, operationId, change, message) => {
    expect(() => invalidations(specWith(operationId, change))).toThrow(message);
  });
});

describe('the shapes of bodies', () => {
  const shapesSpec = parse(
    readFileSync(fileURLToPath(new URL('../../contract/test/fixtures/shapes/openapi.yaml', import.meta.url)), 'utf8'),
  ) as OpenApiDocument;
  const shapesOperation = (spec: OpenApiDocument, operationId: string): Operation => {
    for (const pathItem of Object.values(spec.paths ?? {}) as Record<string, Operation>[]) {
      for (const operation of Object.values(pathItem)) if (operation.operationId === operationId) return operation;
    }
    throw new Error(`no ${operationId}`);
  };

  it('makes the file and text reads queries, typed from the same contract as the client, and the multipart upload a mutation', () => {
    const source = queryOptionsModule(shapesSpec, buildTable(shapesSpec), pagingTable(shapesSpec), '');
    expect(source).toContain(
      "downloadReportOptions: (args: QueryArgs['downloadReport']): ReadOptions<'downloadReport', ReadQueryKey<'shapes', 'downloadReport', QueryArgs['downloadReport'], Contract>, Contract>",
    );
    expect(source).toContain('the data is the success body (a Blob, application/pdf)');
    expect(source).toContain("uploadDocumentMutation: (): OperationMutationOptions<'uploadDocument', MutationVariables['uploadDocument'], Contract>");
    expect(source).not.toContain('uploadDocumentOptions');
    expect(source).toContain("uploadDocument: { body: ContractRequestBody<Contract, 'uploadDocument'>; options?: MutationCallOptions };");
    // The client functions the options call, with their signatures as the client's generator writes them.
    expect(source).toContain(
      "  downloadReport<O extends CallOptions & StreamOption = object>(reportId: ContractPathParameter<Contract, 'downloadReport', 'report_id'>, opts?: O): Promise<ContractResult<Contract, 'downloadReport', O>>;",
    );
    // Nothing pages in the fixture: nothing of the infinite queries is imported.
    expect(source).not.toContain('infinite.js');
  });

  it('refuses an x-invalidates pointer into an answer that is not JSON', () => {
    const spec = structuredClone(shapesSpec);
    shapesOperation(spec, 'removeReport')['x-invalidates'] = [{ operationId: 'downloadReport', parameters: { report_id: '$response.body#/id' } }];
    expect(() => invalidationTable(spec, buildTable(spec))).toThrow(/points into removeReport's answer, which is not JSON/);
  });

  it('refuses an x-invalidates pointer into a text body', () => {
    const spec = structuredClone(shapesSpec);
    shapesOperation(spec, 'postNote')['x-invalidates'] = [{ operationId: 'downloadReport', parameters: { report_id: '$request.body#/id' } }];
    expect(() => invalidationTable(spec, buildTable(spec))).toThrow(/points into a text\/plain body, which has no properties/);
  });
});
