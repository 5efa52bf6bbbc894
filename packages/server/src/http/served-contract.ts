// The contract the service serves: the operation table, the spec the request validator compiles, and
// the validators of the service's own answers, all generated from one spec by scripts/generate.mjs.
// createApp takes it as an option (the product's by default), so that the same pipeline runs over
// another spec's generated files (the tests' fixture spec of shapes); every step reads its facts from
// here or from the entry the resolver attached (res.locals.operation), never from the product's files.
import { operationTable, validatorSpecPath, type CompiledCheck, type OperationFacts } from '@invoice-api/contract';
import { responseValidators } from '../../generated/response-validators.js';

/** How one media type of a body is carried (scripts/lib/media-shapes.mjs), as the table states it. */
export type MediaFacts = OperationFacts['responseMedia'][string][number];
/** One part of a multipart body: a field or a file. */
export type MultipartPart = Extract<MediaFacts, { kind: 'multipart' }>['parts'][number];
/** A file part of a multipart body. */
export type FilePart = Extract<MultipartPart, { kind: 'file' }>;
/** The request body's media types, as the table states them; null when the operation takes no body. */
export type RequestMedia = OperationFacts['requestMedia'];

/** One validator per operation and documented status (service-response-validators.ts of the spec). */
export type AnswerValidators = { readonly [operationId: string]: Readonly<Record<number, CompiledCheck>> };

export interface ServedContract {
  /** The generated operation table (operations.ts): every fact of every operation. */
  readonly operations: { readonly [operationId: string]: OperationFacts };
  /** The spec express-openapi-validator compiles (openapi.validator.json, scripts/lib/validator-spec.mjs). */
  readonly validatorSpecPath: string;
  /** The service's check of its own answers, compiled at generate time. */
  readonly responseValidators: AnswerValidators;
}

/** The product's contract: packages/contract/generated/ and packages/server/generated/. */
export const productContract: ServedContract = { operations: operationTable, validatorSpecPath, responseValidators };
