// Small helpers to assert what a handler answered or refused.
import { expect } from 'vitest';
import { ApiError } from '../../src/errors.js';

/** The ApiError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ rejected: error }),
  );
  if ('resolved' in outcome) throw new Error(`Expected an ApiError, got ${JSON.stringify(outcome.resolved)}`);
  expect(outcome.rejected).toBeInstanceOf(ApiError);
  return outcome.rejected as ApiError;
}

/** Splits settled results into answers and ApiErrors (anything else fails the test). */
export function partition<T>(results: ReadonlyArray<PromiseSettledResult<T>>): { answers: T[]; errors: ApiError[] } {
  const answers: T[] = [];
  const errors: ApiError[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') {
      answers.push(result.value);
    } else {
      expect(result.reason).toBeInstanceOf(ApiError);
      errors.push(result.reason as ApiError);
    }
  }
  return { answers, errors };
}
