// `validateResponses`: answers checked against the strict spec by the validators `pnpm generate`
// compiled. What it catches (an undocumented field, a wrong type, a missing property, an undocumented
// status), what it lets through (every example the spec documents, a new error code of the extensible
// ErrorCode), how it reports, and that the generated module needs nothing at run time but the client.
import { readFileSync } from 'node:fs';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { isRecord, loadSpec, resolveRef, type OperationId } from '@invoice-api/contract';
import { ResponseValidationError, createApiClient } from '../src/index.js';
import { responseFormats } from '../src/response-formats.js';
import { jsonPath, responseCheck } from '../src/response-validation.js';
import { errorBody, scriptedFetch } from './fake-fetch.js';
import { sampleInvoice } from './sample-answers.js';

const baseUrl = 'http://api.test';
const invoice = { ...sampleInvoice, description: '', amount: 10.5 };
const page = { data: [invoice], pagination: { total: 1, limit: 50, offset: 0, has_more: false } };

function validatingClient(...answers: Parameters<typeof scriptedFetch>) {
  const fake = scriptedFetch(...answers);
  return createApiClient({ baseUrl, token: 't', fetch: fake.fetch, retry: false, validateResponses: true });
}

async function failureOf(call: Promise<unknown>): Promise<ResponseValidationError> {
  const failure = await call.catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ResponseValidationError);
  return failure as ResponseValidationError;
}

describe('validateResponses: true', () => {
  it('catches a field the spec does not have, naming the operation, status, path and rule', async () => {
    const api = validatingClient({ status: 200, body: { invoice: { ...invoice, discount: 5 } } });
    const failure = await failureOf(api.getInvoice(5, { requestId: 'req-1' }));
    expect(failure).toMatchObject({
      operationId: 'getInvoice',
      status: 200,
      requestId: 'req-1',
      issue: { path: '$.invoice.discount', rule: 'additionalProperties' },
    });
    expect(failure.message).toBe(
      'getInvoice: the 200 answer does not match the spec at $.invoice.discount: additionalProperties (not in the spec: discount); request id req-1',
    );
    expect(failure.body).toEqual({ invoice: { ...invoice, discount: 5 } });
  });

  it('catches a wrong type deep in a list', async () => {
    const api = validatingClient({ status: 200, body: { ...page, data: [invoice, { ...invoice, id: 6, amount: '10.50' }] } });
    const failure = await failureOf(api.searchInvoices());
    expect(failure.issue).toEqual({ path: '$.data[1].amount', rule: 'type', message: 'must be number' });
  });

  it('checks formats and error answers too', async () => {
    const badDate = validatingClient({ status: 200, body: { invoice: { ...invoice, due_date: '2026-02-30' } } });
    expect((await failureOf(badDate.getInvoice(5))).issue).toMatchObject({ path: '$.invoice.due_date', rule: 'format' });
    const badError = validatingClient({ status: 404, body: { error: 'not_found' } });
    const failure = await failureOf(badError.getInvoice(5));
    expect(failure).toMatchObject({ status: 404, issue: { path: '$', rule: 'required', message: "must have required property 'message'" } });
  });

  it('reports a status the operation does not document', async () => {
    const api = validatingClient({ status: 502, body: errorBody('internal_error') });
    const failure = await failureOf(api.getHealth());
    expect(failure.issue).toEqual({ path: '$', rule: 'status', message: 'the spec documents no 502 answer for getHealth' });
  });

  it('lets valid answers through, a new error code of the extensible ErrorCode included', async () => {
    const api = validatingClient({ status: 200, body: page }, { status: 409, body: errorBody('some_future_code') });
    expect(await api.searchInvoices()).toMatchObject({ ok: true, data: page });
    expect(await api.createInvoice({ client_id: 1, amount: 1, currency: 'CHF', due_date: '2026-12-31' })).toMatchObject({ ok: false, status: 409 });
  });

  it('hands the error to a function instead of throwing, and the call returns its result', async () => {
    const reported: ResponseValidationError[] = [];
    const fake = scriptedFetch({ status: 200, body: { invoice: { ...invoice, discount: 5 } } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch, validateResponses: (error) => reported.push(error) });
    expect(await api.getInvoice(5)).toMatchObject({ ok: true, status: 200 });
    expect(reported.map((error) => error.issue.path)).toEqual(['$.invoice.discount']);
  });

  it('is off by default: the same answer is returned unchecked', async () => {
    const fake = scriptedFetch({ status: 200, body: { invoice: { ...invoice, discount: 5 } } });
    const api = createApiClient({ baseUrl, token: 't', fetch: fake.fetch });
    expect(await api.getInvoice(5)).toMatchObject({ ok: true });
  });
});

describe('the generated validators', () => {
  const spec = loadSpec();
  const check = responseCheck();

  /** Every example of every documented answer: operationId, status, name, value. */
  function documentedExamples() {
    const found: Array<[OperationId, number, string, unknown]> = [];
    for (const item of Object.values(spec.paths)) {
      for (const operation of Object.values(item)) {
        if (!isRecord(operation) || typeof operation.operationId !== 'string') continue;
        for (const [status, response] of Object.entries(resolveRef(spec, operation.responses) as Record<string, unknown>)) {
          const content = (resolveRef(spec, response) as { content?: Record<string, { examples?: Record<string, unknown> }> }).content;
          for (const [name, example] of Object.entries(content?.['application/json']?.examples ?? {})) {
            found.push([operation.operationId as OperationId, Number(status), name, (resolveRef(spec, example) as { value: unknown }).value]);
          }
        }
      }
    }
    return found;
  }

  it('accept every example the spec documents for every answer, error answers included', async () => {
    const examples = documentedExamples();
    expect(examples.length).toBeGreaterThan(50);
    const failures = [];
    for (const [operationId, status, name, value] of examples) {
      const issue = await check(operationId, status, value);
      if (issue) failures.push(`${operationId} ${status} ${name}: ${issue.path} ${issue.rule}`);
    }
    expect(failures).toEqual([]);
  });

  it('import nothing at run time but the client itself: no Ajv, no require, no eval', () => {
    const code = readFileSync(new URL('../generated/response-validators.ts', import.meta.url), 'utf8');
    const imports = [...code.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imports).toEqual(['../src/response-formats.js', '../src/response-validation.js']);
    expect(code).not.toMatch(/require\(|new Function|\beval\(/);
  });

  it('have a format check for every format the spec uses, of the type it is used on', () => {
    const used = new Map<string, string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (isRecord(node)) {
        if (typeof node.format === 'string') used.set(node.format, node.type === 'number' || node.type === 'integer' ? 'number' : 'string');
        Object.values(node).forEach(visit);
      }
    };
    visit(spec.components.schemas);
    expect(used.size).toBeGreaterThan(0);
    for (const [format, type] of used) expect(responseFormats[format]?.type, format).toBe(type);
  });

  it("judge dates, date-times and e-mail addresses as the service's validator (ajv-formats, full mode) does", () => {
    const samples: Record<string, string[]> = {
      date: ['2026-11-23', '2024-02-29', '2026-02-29', '2026-13-01', '2026-1-01', '2026-11-23T00:00:00Z', '0000-01-01'],
      'date-time': [
        '2026-11-23T10:00:00Z',
        '2026-11-23T10:00:00.123+01:00',
        '2026-11-23 10:00:00z',
        '2026-11-23T10:00:00',
        '2026-11-23T24:00:00Z',
        '2016-12-31T23:59:60Z',
        '2016-12-31T22:59:60-01:00',
        '2026-11-23T23:59:60Z',
        '2026-11-23',
        '2026-11-23t10:00:00+01',
        '2026-11-23T10:00:00+0130',
        '2026-11-23T10:00:00+24:00',
        '2026-11-23T10:60:00Z',
        '2026-02-29T10:00:00Z',
        '2026-11-23TT10:00:00Z',
        '2026-11-23T10:00:00.Z',
      ],
      email: ['a@example.com', 'first.last+tag@sub.example.org', 'no-at.example.com', 'a@b', 'a..b@example.com', 'A@EXAMPLE.COM'],
    };
    for (const [format, values] of Object.entries(samples)) {
      const reference = fullFormats[format as keyof typeof fullFormats];
      const referenceCheck = (value: string): boolean =>
        reference instanceof RegExp
          ? reference.test(value)
          : typeof reference === 'object' && 'validate' in reference
            ? (reference.validate as (text: string) => boolean)(value)
            : false;
      const ours = responseFormats[format]?.validate as (text: string) => boolean;
      for (const value of values) expect(ours(value), `${format} ${value}`).toBe(referenceCheck(value));
    }
  });
});

describe('jsonPath', () => {
  it('writes an Ajv instance path as a JSON path, quoting keys that are not identifiers', () => {
    expect(jsonPath('')).toBe('$');
    expect(jsonPath('/data/0/amount')).toBe('$.data[0].amount');
    expect(jsonPath('/a~1b/c~0d', 'x-y')).toBe('$["a/b"]["c~d"]["x-y"]');
  });
});
