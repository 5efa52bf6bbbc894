// express-openapi-validator over the BUNDLED spec (with the split files, every answer became a 500):
// request shape and the spec's number formats. Answers are checked by answer-check.ts instead, with
// validators compiled at generate time: the library's response check wraps `res.json` and looks up
// its validators per answer, a cost every request paid. It is a library that reads the spec itself and finds the
// operation by its own lookup of method and path; that lookup is internal to it and the one exception
// to "the path is matched once" (operation-resolver.ts). Tokens and scopes are not its job: auth.ts
// checks both, once, earlier in the decided order (401, 429, 403 before any body check).
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { numberFormats } from '@invoice-api/contract';
import { productContract } from './served-contract.js';

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];

export interface SpecValidatorOptions {
  requestValidation: boolean;
  /** The served contract's validator spec (served-contract.ts); default: the product's. */
  validatorSpecPath?: string;
}

/** The validator's options, as the service uses them. */
export function specValidatorOptions(options: SpecValidatorOptions): ValidatorOptions {
  return {
    // The bundled spec with Ajv's discriminator hints (see validatorSpecPath), which `discriminator: true`
    // below turns on: a bad search criterion is checked against its own branch only. Its uploads
    // (multipart files, bytes bodies) accept any value: the service checks them (scripts/lib/validator-spec.mjs).
    apiSpec: options.validatorSpecPath ?? productContract.validatorSpecPath,
    // Every problem, so that errors.ts can report the first one in body order, not in schema order.
    // The cost is bounded by the 1 MiB body limit and the spec's maxItems/maxLength everywhere.
    // Off only in benchmarks (REQUEST_VALIDATION=off, refused in production: config.ts).
    validateRequests: options.requestValidation ? { allErrors: true, allowUnknownQueryParameters: false, discriminator: true } : false,
    validateResponses: false,
    validateSecurity: false,
    // `full`: a date must exist (2026-02-30 is rejected), not just look like one.
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    formats: Object.fromEntries(numberFormats.map(({ name, type, validate }) => [name, { type, validate }])),
    // Routing is ours (router.ts, by the operation the resolver attached); the validator only validates.
    operationHandlers: false,
    // Multipart bodies are read by multipart-body.ts (busboy, limits from the spec, files checked for
    // real and handed over as web Files). The validator's own reader (multer) would blank every file to
    // '' before validating it, so that a string sent in place of a file passed.
    fileUploader: false,
    // Schemas without $ref are compiled inline; through $ref, Ajv (allErrors) concatenates the error
    // list at every referenced element, quadratic in the number of problems.
    $refParser: { mode: 'dereference' },
    // The document is checked where it is made, not at every start (which would compile OpenAPI's own
    // schema each time): redocly lints the spec at generate time, and validator-spec.test.ts holds this
    // document to the library's own check.
    validateApiSpec: false,
  };
}

export function specValidator(options: SpecValidatorOptions): RequestHandler[] {
  return OpenApiValidator.middleware(specValidatorOptions(options));
}
