// The shapes of the tables `pnpm generate` writes for the MSW handlers (../../generated/msw-answers.ts).
import type { OperationId } from '@invoice-api/contract';

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

/** One documented answer: the headers the spec requires, its named examples, its body schema. */
export interface AnswerFacts {
  readonly headers: Readonly<Record<string, string>>;
  readonly examples: Readonly<Record<string, unknown>>;
  readonly schema?: GenerationSchema;
}

export interface MswOperationFacts {
  readonly method: string;
  /** MSW's path syntax: `/api/v1/invoices/:invoice_id`. */
  readonly path: string;
  readonly answers: Readonly<Record<string, AnswerFacts>>;
}

export type MswOperationTable = { readonly [K in OperationId]: MswOperationFacts };
