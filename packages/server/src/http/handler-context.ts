// The context a handler receives (context.ts), built once per request from what the steps before the
// handler recorded in `res.locals`. A class, so that every request's context has one shape and its
// `log` (a child logger carrying the request id, which most requests never ask for) is made on first
// use by a getter on the prototype. An object literal that defines an accessor after a spread is built
// by a V8 runtime call into a dictionary-mode object, every time: far slower than a class instance,
// and slower again wherever a handler reads it. Each operation's answer check is made once, not per
// request.
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Caller, RequestContext } from '../context.js';
import type { Database } from '../db/database.js';
import type { IdempotencyClaim } from '../idempotency/store.js';
import type { IfMatch, IfNoneMatch } from '../preconditions/entity-tag.js';
import { answerChecker } from './answer-check.js';
import type { OperationEntry } from './locals.js';
import type { AnswerValidators } from './served-contract.js';

type AnswerCheck = (status: number, body: unknown) => void;

class HandlerContext implements RequestContext {
  readonly caller: Caller | undefined;
  readonly requestId: string;
  readonly idempotency: IdempotencyClaim | undefined;
  readonly ifMatch: IfMatch | undefined;
  readonly ifNoneMatch: IfNoneMatch | undefined;
  #log: Logger | undefined;

  constructor(
    res: Response,
    readonly db: Database,
    private readonly logger: Logger,
    readonly checkAnswer: AnswerCheck | undefined,
  ) {
    this.caller = res.locals.caller;
    this.requestId = res.locals.requestId;
    this.idempotency = res.locals.idempotency;
    this.ifMatch = res.locals.ifMatch;
    this.ifNoneMatch = res.locals.ifNoneMatch;
  }

  get log(): Logger {
    this.#log ??= this.logger.child({ requestId: this.requestId });
    return this.#log;
  }
}

export interface HandlerContextOptions {
  database: Database;
  logger: Logger;
  /** Give handlers the check of their operation's answers (RESPONSE_VALIDATION). */
  checkAnswers: boolean;
  /** The served contract's answer validators (served-contract.ts). */
  validators: AnswerValidators;
}

/** Makes each request's handler context; the router calls it once the operation is known. */
export function handlerContexts(options: HandlerContextOptions): (req: Request, res: Response) => RequestContext {
  const checks = new Map<OperationEntry, AnswerCheck>();
  const checkOf = (operation: OperationEntry): AnswerCheck => {
    let check = checks.get(operation);
    if (check === undefined) {
      check = answerChecker(options.validators, operation);
      checks.set(operation, check);
    }
    return check;
  };
  return (_req, res) => {
    const operation = res.locals.operation;
    const check = options.checkAnswers && operation !== undefined ? checkOf(operation) : undefined;
    return new HandlerContext(res, options.database, options.logger, check);
  };
}
