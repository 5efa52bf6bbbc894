// Every answer the service sends is checked against the spec first (RESPONSE_VALIDATION, on unless a
// benchmark turns it off): the handlers' answers and the error answers alike, for the operation the
// request addressed. The validators are the ones `pnpm generate` compiled from the strict bundle
// (closed objects, closed enums; ../../generated/response-validators.ts): nothing is compiled at run
// time, and an answer costs one call of its status's validator. A mismatch is a bug of the service:
// it is logged, with the path and rule it broke, and answered as a 500 that shows neither.
import { answerIssue, type OperationId, type ResponseIssue } from '@invoice-api/contract';
import { responseValidators } from '../../generated/response-validators.js';

export class AnswerMismatch extends Error {
  override readonly name = 'AnswerMismatch';
  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    readonly issue: ResponseIssue,
  ) {
    super(`${operationId}: the ${status} answer does not match the spec at ${issue.path}: ${issue.rule} (${issue.message})`);
  }
}

/** The mismatch of this answer with the spec, or undefined when it matches. */
export function answerMismatch(operationId: OperationId, status: number, body: unknown): AnswerMismatch | undefined {
  const issue = answerIssue(responseValidators, operationId, status, body);
  return issue === undefined ? undefined : new AnswerMismatch(operationId, status, issue);
}

/** A check of this operation's answers that throws the mismatch (a keyed write's, before it is stored). */
export function answerChecker(operationId: OperationId): (status: number, body: unknown) => void {
  return (status, body) => {
    const mismatch = answerMismatch(operationId, status, body);
    if (mismatch !== undefined) throw mismatch;
  };
}
