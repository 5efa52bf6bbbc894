// The ONE place that writes error bodies: whatever failed (our own checks, the body parser, the
// validator, a handler's ApiError, the database, a bug) leaves as the spec's Error object
// `{error, message, details?}` with the right status and headers. Unexpected failures are logged with
// the request id and answered without stack or SQL.
import type { ErrorRequestHandler, Request, Response } from 'express';
import { jsonErrorPosition, malformedJsonMessage, type ApiError as ErrorBody } from '@invoice-api/contract';
import { isDatabaseUnavailable } from '../db/database.js';
import { BODY_LIMIT_BYTES } from '../config.js';
import { ApiError } from '../errors.js';
import { answerMismatch } from './answer-check.js';
import { bareChallenge } from './auth.js';
import { HttpError, serviceUnavailableRetryAfterSeconds } from './http-error.js';
import './locals.js';
import { bodyTooLarge, unsupportedMediaType } from './media-types.js';
import type { AnswerValidators } from './served-contract.js';
import { invalidRequest, type ValidatorProblem } from './validation-problems.js';

const internalErrorMessage = 'The service failed to handle the request. Repeating it will not help; quote the X-Request-Id when reporting it.';

export interface ErrorMapperOptions {
  /** Check every error answer of an operation against the spec before sending it (answer-check.ts). */
  checkAnswers: boolean;
  /** The served contract's answer validators (served-contract.ts). */
  validators: AnswerValidators;
}

export function errorMapper(options: ErrorMapperOptions): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // Too late for an Error object: let express cut the connection so the client sees a failure.
      next(error);
      return;
    }
    const operation = res.locals.operation;
    let mapped = toApiError(error, req, res);
    // An error a handler raised that the spec does not document for its operation is the service's
    // bug: logged as such (with the error it replaced as its cause), and answered as a 500. The checks
    // before the handler (token, rate limit, body, shape) answer the decided statuses of every request,
    // the health check's included, and are not the operation's answers to check.
    const mismatch =
      options.checkAnswers && res.locals.handling === true && operation !== undefined
        ? answerMismatch(options.validators, operation, mapped.status, errorBody(mapped))
        : undefined;
    if (mismatch !== undefined) {
      mismatch.cause = error;
      error = mismatch;
      mapped = new ApiError(500, 'internal_error', internalErrorMessage);
    }
    // The request's log line (logging.ts) carries `failure` and the request id: the cause, stack and all,
    // goes to the log and never into the answer. A database outage is expected and answers every
    // request with 503 while it lasts: one warning line per request, naming the cause, no stack.
    if (mapped.status === 503 && isDatabaseUnavailable(error)) res.locals.unavailable = `database unavailable: ${describeCause(error)}`;
    else if (mapped.status >= 500) res.locals.failure = error instanceof Error ? error : new Error(String(error));
    res.status(mapped.status);
    const headers = { ...headersEvery(mapped.status), ...(mapped instanceof HttpError ? mapped.headers : {}) };
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.json(errorBody(mapped));
  };
}

function errorBody(mapped: ApiError): ErrorBody {
  return { error: mapped.code, message: mapped.message, ...(mapped.details === undefined ? {} : { details: mapped.details }) };
}

/** `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432`: the code and first line of the message, no stack. */
function describeCause(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? (message.split('\n')[0] ?? '').slice(0, 300) : error.constructor.name;
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

/** Headers the spec requires on every answer with this status, whoever raised it (a handler too). */
function headersEvery(status: number): Record<string, string> {
  if (status === 401) return { 'WWW-Authenticate': bareChallenge };
  if (status === 503) return { 'Retry-After': String(serviceUnavailableRetryAfterSeconds) };
  return {};
}

/** Classifies any thrown value; everything unknown is a 500. */
export function toApiError(error: unknown, req: Request, res: Response): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return HttpError.serviceUnavailable('The service is temporarily unavailable. Try again shortly.', error);

  const bodyParserFailure = fromBodyParser(error);
  if (bodyParserFailure !== undefined) return bodyParserFailure;

  if (isValidatorError(error)) return fromValidator(error, req, res);
  return new ApiError(500, 'internal_error', internalErrorMessage);
}

/** The errors express.json() raises (http-errors with a `type`). */
function fromBodyParser(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null || !('type' in error) || typeof error.type !== 'string') return undefined;
  switch (error.type) {
    case 'entity.parse.failed': {
      return new ApiError(400, 'invalid_request', malformedJsonMessage(jsonErrorPosition(error instanceof Error ? error.message : '')));
    }
    case 'entity.too.large':
      return bodyTooLarge(BODY_LIMIT_BYTES);
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', 'The request body must be application/json in UTF-8.');
    case 'encoding.unsupported':
      return new ApiError(
        415,
        'unsupported_media_type',
        'The request body uses a Content-Encoding the service does not accept (use identity, gzip, deflate or br).',
      );
    case 'request.aborted':
      return new ApiError(400, 'invalid_request', 'The request body was not received completely.');
    default:
      return undefined;
  }
}

interface ValidatorError {
  status: number;
  message: string;
  errors?: ValidatorProblem[];
}

/** express-openapi-validator's HttpError: `{status, message, errors: [{path, message, errorCode}]}`. */
function isValidatorError(error: unknown): error is ValidatorError {
  return error instanceof Error && 'status' in error && typeof error.status === 'number' && 'errors' in error && Array.isArray(error.errors);
}

/** The validator's security step is off (auth.ts checks tokens and scopes), so it raises no 401 or 403. */
function fromValidator(error: ValidatorError, req: Request, res: Response): ApiError {
  switch (error.status) {
    case 400:
      return invalidRequest(error.errors ?? [], req.body, res.locals.operation);
    case 404:
      return new ApiError(404, 'not_found', 'The requested path does not exist in this API.');
    case 405:
      return new ApiError(405, 'method_not_allowed', 'The method is not allowed on this path.');
    case 413:
      return bodyTooLarge(BODY_LIMIT_BYTES);
    case 415: {
      // request-body.ts refuses a media type the operation does not take before the validator runs; this
      // is the same answer, should the validator find one first.
      const requestMedia = res.locals.operation?.requestMedia;
      if (requestMedia !== undefined && requestMedia !== null) return unsupportedMediaType(requestMedia);
      return new ApiError(415, 'unsupported_media_type', 'The request body must be application/json.');
    }
    default:
      // A response that does not match the spec lands here (500): a bug to log, not to show.
      return new ApiError(500, 'internal_error', internalErrorMessage);
  }
}
