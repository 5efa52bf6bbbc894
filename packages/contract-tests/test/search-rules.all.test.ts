// The mock agrees with the service on what a search body may say: every body of the table gets the
// same status from every target (the Prism mock, which knows only the spec's JSON Schema; the service
// directly and behind the proxy). Invalid bodies are every field x operator the matrix refuses, wrong
// value types, empty and over-long `in` lists, bad dates, decimals and timestamps, and bad top-level
// properties; valid ones use every field. The service's 400 also names the offending part; the mock
// answers its static 400 example, so that is checked on the stateful targets only.
import { describe, expect, inject, it } from 'vitest';
import { rawRequest, tokenFor } from '../src/clients.js';
import { criteria, invalidSearches as invalid, validSearches as valid } from '../src/search-bodies.js';

const targets = inject('contractTargets');

describe.each(targets)('$name: search bodies get the same status from the mock and the service', (target) => {
  const send = async (body: unknown) =>
    rawRequest(target, 'POST', '/api/v1/invoices/search', {
      token: await tokenFor(target),
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
    });

  it('the table holds at least 30 invalid and 10 valid bodies', () => {
    expect(invalid.length).toBeGreaterThanOrEqual(30);
    expect(valid.length).toBeGreaterThanOrEqual(10);
  });

  it.each([...invalid, ...valid])('$name: $status', async ({ body, status, field }) => {
    const answer = await send(body);
    expect(answer.status).toBe(status);
    if (status === 400) expect(answer.body).toMatchObject({ error: 'invalid_request' });
    if (target.stateful && field !== undefined) expect(answer.body).toMatchObject({ details: { field } });
  });

  // The one rule JSON Schema cannot state (it cannot compare two values of an array), so the mock,
  // knowing only the schema, lets it through: documented in SearchCriterion, enforced by the service.
  it('a between with reversed bounds: only the service can refuse it', async () => {
    const answer = await send(criteria(['amount', 'between', [10, 9.99]]));
    if (target.stateful) expect(answer).toMatchObject({ status: 400, body: { details: { field: 'amount', issue: expect.stringContaining('low <= high') } } });
    else expect(answer.status).toBe(200);
  });
});
