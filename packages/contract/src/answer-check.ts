// Checking one answer against the spec with the validators `pnpm generate` compiles to plain JavaScript
// (Ajv's standalone code, scripts/lib/generate-response-validators.mjs): one table per consumer, the
// client's (`validateResponses`) and the service's (its own answers, before they are sent). This is
// the part both share: the validators' shape, and how a failed check becomes one readable issue.
import type { OperationId } from '../generated/operations.js';

/** One rule broken, as Ajv's standalone code reports it. */
export interface CompiledCheckError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A validator compiled at generate time. */
export interface CompiledCheck {
  (data: unknown): boolean;
  errors?: readonly CompiledCheckError[] | null;
}

/** A generated table: one validator per operation and documented status. */
export type ResponseValidatorTable = { readonly [K in OperationId]: Readonly<Record<number, CompiledCheck>> };

/** Where an answer breaks the spec, and how. */
export interface ResponseIssue {
  /** JSON path of the offending value in the body, e.g. `$.data[0].amount` (an undocumented field: its own path). */
  path: string;
  /** The JSON Schema keyword broken (`additionalProperties`, `type`, `required`, `format`, ...), or `status` for an undocumented status. */
  rule: string;
  /** Ajv's text for it, e.g. `must be number`. */
  message: string;
}

/** `/data/0/amount` -> `$.data[0].amount`; keys that are not identifiers are quoted. */
export function jsonPath(pointer: string, extraKey?: string): string {
  const keys = pointer === '' ? [] : pointer.slice(1).split('/');
  if (extraKey !== undefined) keys.push(extraKey.replace(/~/g, '~0').replace(/\//g, '~1'));
  return keys.reduce((path, raw) => {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) return `${path}[${key}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
  }, '$');
}

function issueOf(error: CompiledCheckError | undefined): ResponseIssue {
  if (!error) return { path: '$', rule: 'schema', message: 'does not match the schema' };
  const extra = error.keyword === 'additionalProperties' ? error.params.additionalProperty : undefined;
  const path = jsonPath(error.instancePath, typeof extra === 'string' ? extra : undefined);
  const message = typeof extra === 'string' ? `not in the spec: ${extra}` : (error.message ?? error.keyword);
  return { path, rule: error.keyword, message };
}

/** Checks one answer's body with `table`; undefined when it matches the spec. */
export function answerIssue(table: ResponseValidatorTable, operationId: OperationId, status: number, body: unknown): ResponseIssue | undefined {
  const check = table[operationId][status];
  if (!check) return { path: '$', rule: 'status', message: `the spec documents no ${status} answer for ${operationId}` };
  return check(body) ? undefined : issueOf(check.errors?.[0]);
}
