// `validateResponses`: every answer checked against the spec (the strict bundle: closed objects, so an
// undocumented field is caught) by validators that `pnpm generate` compiled to plain JavaScript
// (Ajv's standalone code, ../generated/response-validators.ts). Nothing is compiled at run time, so
// it runs under a Content-Security-Policy without 'unsafe-eval'. The validators are imported on the
// first checked answer: a bundler that splits code (Vite, Rollup, webpack, esbuild --splitting) puts
// them in a chunk of their own that a client without the option never loads.
import type { OperationId } from '@invoice-api/contract';

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

/** The generated table: one validator per operation and documented status. */
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

/**
 * An answer that does not match the spec, found by `validateResponses`. Thrown by the call when the
 * option is `true`; handed to the option's function instead when it is one (the call then returns its
 * result as usual).
 */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    readonly requestId: string,
    readonly issue: ResponseIssue,
    /** The parsed body that failed the check. */
    readonly body: unknown,
  ) {
    super(`${operationId}: the ${status} answer does not match the spec at ${issue.path}: ${issue.rule} (${issue.message}); request id ${requestId}`);
  }
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

/** Checks one answer's body; undefined when it matches the spec. */
export type ResponseCheck = (operationId: OperationId, status: number, body: unknown) => Promise<ResponseIssue | undefined>;

/** The check `validateResponses` uses, loading the generated validators on first use. */
export function responseCheck(load: () => Promise<ResponseValidatorTable> = loadValidators): ResponseCheck {
  let table: Promise<ResponseValidatorTable> | undefined;
  return async (operationId, status, body) => {
    table ??= load();
    const check = (await table)[operationId][status];
    if (!check) return { path: '$', rule: 'status', message: `the spec documents no ${status} answer for ${operationId}` };
    return check(body) ? undefined : issueOf(check.errors?.[0]);
  };
}

async function loadValidators(): Promise<ResponseValidatorTable> {
  const generated = await import('../generated/response-validators.js');
  return generated.responseValidators;
}
