// Path parameters are read from the path the resolver matched, by the segment index the generated
// operation table gives, so the path is never matched again. Ids are checked as the client wrote
// them, before the validator sees them: the validator coerces a path parameter with Number(), so `1e3`
// became 1000, `+5` 5 and `0x10` 16. A path id is a positive integer written in plain digits without a
// leading zero (`007` is not an id), at most the schema's maximum: anything else is 400
// invalid_request naming the parameter. Which parameters are ids, and their maximum, the generator
// derived from the spec. The values go to res.locals.pathParams, which the router hands to the handler.
import type { RequestHandler } from 'express';
import { decodedSegment, parsePathId, pathIdProblem } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import './locals.js';

export { parsePathId } from '@invoice-api/contract';

/** The 400 for a path id that is not one. */
function invalidPathId(name: string, maximum: number): ApiError {
  const { message, details } = pathIdProblem(name, maximum);
  return new ApiError(400, 'invalid_request', message, details);
}

export function checkPathParams(): RequestHandler {
  return (req, res, next) => {
    const parameters = res.locals.operation?.pathParams;
    if (parameters === undefined || parameters.length === 0) {
      next();
      return;
    }
    const segments = req.path.split('/');
    const values: Record<string, number | string> = {};
    for (const parameter of parameters) {
      const raw = segments[parameter.segment] ?? '';
      if (parameter.id) {
        // The table gives every id its maximum; PostgreSQL's largest integer should it not.
        const maximum = parameter.maximum ?? 2_147_483_647;
        const value = parsePathId(raw, maximum);
        if (value === undefined) {
          next(invalidPathId(parameter.name, maximum));
          return;
        }
        values[parameter.name] = value;
      } else {
        // Not an id: the validator checks the string against its schema.
        values[parameter.name] = decodedSegment(raw) ?? raw;
      }
    }
    res.locals.pathParams = values;
    next();
  };
}
