// A request validator that cannot check requests at all (its document did not load) fails the
// warm-up, and so the start, instead of a service that listens and answers every request with a 500;
// a validator that refuses the warm-up's invalid requests is what warming up expects.
import { readFileSync } from 'node:fs';
import * as OpenApiValidator from 'express-openapi-validator';
import { describe, expect, it } from 'vitest';
import { validatorSpecPath } from '@invoice-api/contract';
import { specValidatorOptions } from '../../src/http/validator.js';
import { ValidatorUnusableError, validatorFailure, warmUpRequests, warmUpValidators } from '../../src/http/warm-up.js';

type Document = { paths: Record<string, Record<string, { parameters?: unknown[] }>> };

function validatorsFor(apiSpec: string | Document) {
  return OpenApiValidator.middleware({ ...specValidatorOptions({ requestValidation: true }), apiSpec: apiSpec as never });
}

describe('validatorFailure', () => {
  it.each([
    ['nothing reported', undefined],
    ['a 400 refusal', new OpenApiValidator.error.BadRequest({ path: '/body', message: 'must be object' })],
    ['a 415 refusal', new OpenApiValidator.error.UnsupportedMediaType({ path: '/', message: 'unsupported media type' })],
    ['a 404 for a path the document lacks', new OpenApiValidator.error.NotFound({ path: '/nope', message: 'not found' })],
  ])('is nothing for %s', (_name, reported) => {
    expect(validatorFailure(reported)).toBeUndefined();
  });

  it.each([
    ['an error without a status', new Error('Missing $ref pointer')],
    ['a 500 of the validator', new OpenApiValidator.error.InternalServerError({ path: '/', message: 'broke' })],
    ['something thrown that is not an Error', 'broken'],
  ])('is the error for %s', (_name, reported) => {
    expect(validatorFailure(reported)).toBeInstanceOf(Error);
  });
});

describe('warmUpValidators', () => {
  it('warms the validator of the real document through every request shape', async () => {
    const warmed = await warmUpValidators(validatorsFor(validatorSpecPath));
    expect(warmed.requests).toBe(warmUpRequests().length);
  });

  it('fails, naming the cause, when the document the validator reads does not load', async () => {
    const broken = JSON.parse(readFileSync(validatorSpecPath, 'utf8')) as Document;
    broken.paths['/api/v1/users']!['get']!.parameters!.push({ $ref: '#/components/parameters/NoSuchParameter' });
    const warming = warmUpValidators(validatorsFor(broken));
    await expect(warming).rejects.toBeInstanceOf(ValidatorUnusableError);
    await expect(warming).rejects.toThrow(/^the request validator cannot check requests: .*NoSuchParameter/);
  });
});
