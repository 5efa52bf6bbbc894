// The search 400 examples of the spec (what the mock answers, what the docs show) are the answers the
// service really gives to the bodies they describe, word for word.
import { loadSpec, resolveRef } from '@invoice-api/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { parseSearchRequest } from '../../src/search/index.js';

const bodies: Record<string, unknown> = {
  OperatorNotAllowed: { criteria: [{ field: 'amount', operator: 'like', value: '12' }] },
  UnknownSearchField: { criteria: [{ field: 'client_name', operator: '=', value: 'Muster AG' }] },
  LimitTooLarge: { limit: 5000 },
  WrongValueType: { criteria: [{ field: 'due_date', operator: '=', value: '2026-02-30' }] },
};

function documentedExample(name: string): unknown {
  const spec = loadSpec();
  const response = resolveRef(spec, spec.components['responses']?.['SearchBadRequest']);
  const content = response?.['content'] as Record<string, { examples: Record<string, unknown> }>;
  return resolveRef(spec, content['application/json']?.examples[name])?.['value'];
}

describe('documented search errors', () => {
  it.each(Object.keys(bodies))('%s is what the service answers', (name) => {
    let answer: unknown;
    try {
      parseSearchRequest(bodies[name]);
    } catch (error) {
      if (error instanceof ApiError) answer = { error: error.code, message: error.message, details: error.details };
    }
    expect(answer).toEqual(documentedExample(name));
  });
});
