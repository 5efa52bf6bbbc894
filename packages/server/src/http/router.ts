// Calls the handler of the operation the resolver attached (res.locals.operation), by its operationId:
// the path was matched once, by operation-resolver.ts, and is not matched again here. The handler gets
// the validated `{params, query, body}` (and `mediaType` where the request body may come in several)
// and the request context; its `{status, mediaType?, body, headers}` is checked against the spec
// (answer-check.ts) and sent as the spec says that status is carried (send-answer.ts).
// A handler missing from the product's map is a compile error (HandlerMap, app.ts).
import type { Request, RequestHandler, Response } from 'express';
import type { RequestContext } from '../context.js';
import { answerMedia, answerMismatch } from './answer-check.js';
import { discardStream } from './answer-stream.js';
import { serviceUnavailableRetryAfterSeconds } from './http-error.js';
import type { OperationEntry } from './locals.js';
import { sendAnswer } from './send-answer.js';
import type { AnswerValidators } from './served-contract.js';

export type ContextFactory = (req: Request, res: Response) => RequestContext;

/** What every handler's answer looks like once its per-operation typing has done its job. */
export interface Answer {
  status: number;
  /** Which of the status's media types the body is in; absent: the status's first (its only one, mostly). */
  mediaType?: string;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

/**
 * A handler as the service calls it. `never` takes every handler's own request type (a function that
 * accepts less specific input is not assignable the other way); the answer is what the router reads.
 */
export type ServedHandler = (request: never, context: RequestContext) => Promise<Answer>;

/** The handler of every operation of the served contract, by operationId. */
export type ServedHandlers = { readonly [operationId: string]: ServedHandler };

/** The request a handler receives; its per-operation type is the contract's (handlers.ts). */
interface HandlerInput {
  params: Record<string, number | string>;
  query: unknown;
  body: unknown;
  mediaType?: string;
}

type Endpoint = (req: Request, res: Response) => Promise<void>;

export interface RouterOptions {
  /** The served contract's operations and its answer validators (served-contract.ts). */
  operations: { readonly [operationId: string]: OperationEntry };
  validators: AnswerValidators;
  /** Check every answer against the spec before sending it (answer-check.ts). */
  checkAnswers: boolean;
}

export function operationRouter(handlers: ServedHandlers, contextFor: ContextFactory, options: RouterOptions): RequestHandler {
  const endpoints = new Map<string, Endpoint>();
  for (const [operationId, handler] of Object.entries(handlers)) {
    const operation = options.operations[operationId];
    if (operation === undefined) throw new Error(`a handler for ${operationId}, which the served contract does not have`);
    endpoints.set(operationId, endpoint(operation, handler as (request: HandlerInput, context: RequestContext) => Promise<Answer>, contextFor, options));
  }
  return (req, res, next) => {
    const operation = res.locals.operation;
    const send = operation === undefined ? undefined : endpoints.get(operation.operationId);
    if (send === undefined) {
      next();
      return;
    }
    send(req, res).catch(next);
  };
}

function endpoint(
  operation: OperationEntry,
  handler: (request: HandlerInput, context: RequestContext) => Promise<Answer>,
  contextFor: ContextFactory,
  options: RouterOptions,
): Endpoint {
  // Decided once per operation: whether its request says which media type its body came in.
  const namesRequestMedia = (operation.requestMedia?.media.length ?? 0) > 1;
  const check = options.checkAnswers ? operation.operationId : undefined;
  return async (req, res) => {
    // The validator has checked params, query and body against this operation's schemas just before,
    // so this is the one place where the untyped request becomes the operation's typed request. Path
    // parameters are path-ids.ts's values (ids as checked numbers), read by segment from the path.
    res.locals.handling = true;
    const params = res.locals.pathParams ?? {};
    const request: HandlerInput = { params, query: req.query, body: req.body as unknown };
    if (namesRequestMedia && res.locals.requestMedia !== undefined) request.mediaType = res.locals.requestMedia.mediaType;
    const answer = await handler(request, contextFor(req, res));
    // Before anything of the answer is set: a mismatch leaves as the error mapper's 500.
    let media: ReturnType<typeof answerMedia>;
    try {
      media = answerMedia(operation, answer.status, answer.mediaType);
      if (options.checkAnswers) {
        const mismatch = answerMismatch(options.validators, operation, answer.status, answer.body, media);
        if (mismatch !== undefined) throw mismatch;
      }
    } catch (error) {
      discardStream(answer.body);
      throw error;
    }
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    // Every 503 tells the client when to come back (the health check's included).
    if (answer.status === 503) {
      if (!res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(serviceUnavailableRetryAfterSeconds));
      // An answer, not a failure (the health check while the database is down): logged as a warning.
      res.locals.unavailable ??= `${operation.operationId} answered 503`;
    }
    const streaming = sendAnswer(req, res, answer.body, media, check);
    if (streaming !== undefined) await streaming;
  };
}
