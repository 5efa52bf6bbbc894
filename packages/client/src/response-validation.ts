// `validateResponses`: every answer checked against the spec (the strict bundle: closed objects, so an
// undocumented field is caught) by validators that `pnpm generate` compiled to plain JavaScript
// (Ajv's standalone code, ../generated/response-validators.ts). Nothing is compiled at run time, so
// it runs under a Content-Security-Policy without 'unsafe-eval'. The validators are imported on the
// first checked answer: a bundler that splits code (Vite, Rollup, webpack, esbuild --splitting) puts
// them in a chunk of their own that a client without the option never loads.
import { answerIssue, type OperationId, type ResponseIssue, type ResponseValidatorTable } from '@invoice-api/contract';

export { jsonPath } from '@invoice-api/contract';
export type { CompiledCheck, CompiledCheckError, ResponseIssue, ResponseValidatorTable } from '@invoice-api/contract';

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

/** Checks one answer's body; undefined when it matches the spec. */
export type ResponseCheck = (operationId: OperationId, status: number, body: unknown) => Promise<ResponseIssue | undefined>;

/** The check `validateResponses` uses, loading the generated validators on first use. */
export function responseCheck(load: () => Promise<ResponseValidatorTable> = productValidators): ResponseCheck {
  let table: Promise<ResponseValidatorTable> | undefined;
  return async (operationId, status, body) => {
    table ??= load();
    return answerIssue(await table, operationId, status, body);
  };
}

/** The product's validators (../generated/response-validators.ts), imported on the first checked answer. */
export async function productValidators(): Promise<ResponseValidatorTable> {
  const generated = await import('../generated/response-validators.js');
  return generated.responseValidators;
}
