// A body that is valid JSON but not an object (`"text"`, `42`, `true`, `null`, `[1]`) where the spec
// wants an object: 400 invalid_request naming the body (details.field `body`, issue "must be a JSON
// object"), and saying what it got. It is valid JSON, so "not valid JSON" would be wrong, and Ajv's
// "must be object" says less. Runs after the path parameters (they come first) and before the
// validator. Which operations take an object body is the generated table's `body.object`.
import type { RequestHandler } from 'express';
import { isRecord, notAnObjectProblem } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import './locals.js';

export { describeJsonValue, notAnObjectIssue } from '@invoice-api/contract';

export function requireJsonObjectBody(): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.body;
    // undefined: no body at all (the validator decides whether one is required). A body in another media
    // type than JSON (request-body.ts) is not the JSON schema's to judge.
    const media = res.locals.requestMedia;
    if (res.locals.operation?.body?.object !== true || body === undefined || isRecord(body) || (media !== undefined && media.kind !== 'json')) {
      next();
      return;
    }
    const { message, details } = notAnObjectProblem(body);
    next(new ApiError(400, 'invalid_request', message, details));
  };
}
