// The shapes of the tables `pnpm generate` writes for the MSW handlers (../../generated/msw-answers.ts,
// msw-request-validators.ts), and of the set of generated tables one set of handlers serves: the
// product's by default, a fixture spec's in the tests (`mswHandlers(tables)`).
import type { CompiledCheck, OperationFacts, OperationId } from '@invoice-api/contract';

/** A character set drawn `min` to `max` times: one step of a simple pattern. */
export interface PatternStep {
  readonly chars: string;
  readonly min: number;
  readonly max: number;
}

/** A JSON Schema as the seeded data generator reads it: annotations dropped, `$ref` a schema's name. */
export interface GenerationSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, GenerationSchema>>;
  readonly required?: readonly string[];
  readonly items?: GenerationSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly oneOf?: readonly GenerationSchema[];
  readonly anyOf?: readonly GenerationSchema[];
  readonly allOf?: readonly GenerationSchema[];
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  /** Values of the schema's `examples` that match its pattern. */
  readonly samples?: readonly string[];
  /** The pattern as steps, for a patterned string without examples. */
  readonly patternPlan?: readonly PatternStep[];
}

/**
 * What one media type of a documented answer is answered with. Which kind of body it is (JSON, text,
 * bytes) is the operation table's `responseMedia`, not repeated here.
 */
export interface MediaAnswerFacts {
  /** The named examples, values resolved (a media type's single `example` is named `example`). */
  readonly examples: Readonly<Record<string, unknown>>;
  /** JSON and text: the schema seeded data is generated from. */
  readonly schema?: GenerationSchema;
  /** Bytes: a small valid file of the media type, base64 (scripts/lib/sample-files.mjs). */
  readonly sample?: string;
}

/** One documented answer: the headers the spec requires, and per media type what it is answered with. */
export interface AnswerFacts {
  readonly headers: Readonly<Record<string, string>>;
  /** By media type, in the spec's order; empty: the answer has no body (a 204). */
  readonly media: Readonly<Record<string, MediaAnswerFacts>>;
}

export interface MswOperationFacts {
  readonly method: string;
  /** MSW's path syntax: `/api/v1/invoices/:invoice_id`. */
  readonly path: string;
  readonly answers: Readonly<Record<string, AnswerFacts>>;
}

export type MswOperationTable<Id extends string = OperationId> = { readonly [K in Id]: MswOperationFacts };

/**
 * operationId -> request media type -> the compiled check of `{ query, body }`; the key '' checks the
 * query of a request without a body (operations that take neither a query nor a checked body have none).
 */
export type RequestValidatorTable<Id extends string = OperationId> = { readonly [K in Id]?: Readonly<Record<string, CompiledCheck>> };

/** The generated tables one set of handlers serves, all from one spec. */
export interface MswTables<Id extends string = OperationId> {
  /** The operation table (packages/contract/generated/operations.ts, or a fixture's). */
  readonly operationTable: { readonly [K in Id]: OperationFacts };
  readonly mswOperations: MswOperationTable<Id>;
  readonly generationSchemas: Readonly<Record<string, GenerationSchema>>;
  readonly requestValidators: RequestValidatorTable<Id>;
}

/** How one media type of a body is carried: an entry of the table's requestMedia / responseMedia. */
export type MediaFacts = OperationFacts['responseMedia'][string][number];
