import { describe, expect, it } from 'vitest';
import { ContractViolationError, responseViolations, violationCheckingFetch } from '../../src/violations.js';

const answer = (headers: Record<string, string>) => async () => new Response('{}', { status: 200, headers });
const request = new Request('http://127.0.0.1/api/v1/users');

describe('reading sl-violations', () => {
  it('keeps response violations and drops request ones', () => {
    const header = JSON.stringify([
      { location: ['request', 'body'], severity: 'Error', code: 'required', message: 'Request body must have required property items' },
      { location: ['response', 'body', 'user'], severity: 'Error', code: 'additionalProperties', message: 'must NOT have additional properties' },
    ]);
    expect(responseViolations(header).map((violation) => violation.location.join('.'))).toEqual(['response.body.user']);
  });

  it('reads the "Too many violations!" form, and a cut list that still names a response', () => {
    expect(responseViolations('Too many violations! [{"location":["response","body"],"severity":"Error","code":"type","message":"m"}]')).toHaveLength(1);
    expect(responseViolations('Too many violations! [{"location":["response","body"],"sev')).toHaveLength(1);
    expect(responseViolations(null)).toEqual([]);
  });

  it('rejects an answer with a response violation, but not a missing-header report for a header that is there', async () => {
    const bad = JSON.stringify([{ location: ['response', 'body'], severity: 'Error', code: 'type', message: 'must be integer' }]);
    await expect(violationCheckingFetch(answer({ 'sl-violations': bad }))(request)).rejects.toBeInstanceOf(ContractViolationError);
    const falseAlarm = JSON.stringify([
      { location: ['response', 'header'], severity: 'Error', code: 'required', message: "Response header must have required property 'retry-after'" },
    ]);
    await expect(violationCheckingFetch(answer({ 'sl-violations': falseAlarm, 'Retry-After': '1' }))(request)).resolves.toBeInstanceOf(Response);
    await expect(violationCheckingFetch(answer({ 'sl-violations': falseAlarm }))(request)).rejects.toBeInstanceOf(ContractViolationError);
  });
});
