// Mock only: every documented answer of every operation, asked for with Prism's Prefer header, comes
// back through the client exactly as the spec's named example, with no response violation. This is
// what a frontend developer relies on when asking the mock for `Prefer: code=409`.
import { describe, expect, inject, it } from 'vitest';
import { expectOk } from '@invoice-api/client';
import { loadSpec, operationTable, resolveRef, type InvoiceSearchRequest } from '@invoice-api/contract';
import { clientFor } from '../src/clients.js';
import { documentedAnswers } from '../src/spec-answers.js';
import { validCall } from '../src/valid-calls.js';

const mock = inject('contractTargets').find((target) => target.name === 'mock');
if (!mock) throw new Error('the mock target was not started');
const answers = documentedAnswers();

describe('mock: each documented answer on request', () => {
  it('covers every operation and every documented error status', () => {
    const statuses = new Set(answers.map((answer) => `${answer.operationId} ${answer.status}`));
    expect(statuses.has('issueDelivery 409')).toBe(true);
    expect(statuses.has('searchInvoices 400')).toBe(true);
    expect(new Set(answers.map((answer) => answer.operationId)).size).toBe(Object.keys(operationTable).length);
  });

  it.each(answers.map((answer) => [`${answer.operationId} ${answer.status} ${answer.example}`, answer] as const))('%s', async (_label, answer) => {
    const api = await clientFor(mock);
    const result = await validCall(answer.operationId)(api, { headers: { Prefer: `code=${answer.status}, example=${answer.example}` } });
    expect(result.status).toBe(answer.status);
    expect(result.ok ? result.data : result.error).toEqual(answer.value);
  });

  it('accepts a search by cursor (the SearchNextPage example) and shows a page with its next_cursor', async () => {
    const api = await clientFor(mock);
    const body = resolveRef(loadSpec(), { $ref: '#/components/examples/SearchNextPage' })?.value as InvoiceSearchRequest;
    expect(body.cursor).toEqual(expect.any(String));
    const page = await expectOk(api.searchInvoices(body, { headers: { Prefer: 'code=200, example=InvoiceSearchPage' } }));
    expect(page.pagination.has_more).toBe(true);
    expect(page.pagination.next_cursor).toEqual(expect.any(String));
  });

  it('answers the first example of a status asked for with Prefer: code alone', async () => {
    const api = await clientFor(mock);
    const result = await api.issueDelivery(
      { delivery_id: 42, contact_id: 12, items: [{ item_id: 1, quantity: 1, unit_price: 1 }] },
      { headers: { Prefer: 'code=404' } },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.error).toBe('not_found');
  });
});
