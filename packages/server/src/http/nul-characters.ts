// PostgreSQL text cannot hold U+0000, and a NUL in a string is never meaningful for this API: a body
// string containing one is a 400 naming it, rather than a database error (500) later. Runs after the
// validator, so that schema problems keep their place in body order.
//
// JSON can only write NUL inside a string as the escape `\u0000` (a raw control character is invalid
// JSON), so the body parser's raw bytes tell whether a walk of the parsed body can find anything:
// `noteNulEscapes` looks at them as they arrive (json-body.ts), and most bodies are never walked.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { firstNulCharacter, nulCharacterProblem } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import './locals.js';

const nulEscape = Buffer.from('\\u0000');

/** express.json's `verify` hook for a UTF-8 body: records whether the raw bytes may hold a NUL. */
export function noteNulEscapes(_req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
  (res as Response).locals.bodyMayHoldNul = raw.includes(nulEscape);
}

export { firstNulCharacter } from '@invoice-api/contract';

export function rejectNulCharacters(): RequestHandler {
  return (req, res, next) => {
    // False: the raw UTF-8 body has no `\u0000`; undefined: it was not read that way (json-body.ts).
    // Bytes are bytes (a PDF holds NULs), and are never stored as text.
    if (res.locals.bodyMayHoldNul === false || res.locals.requestMedia?.kind === 'bytes') {
      next();
      return;
    }
    const path = firstNulCharacter(req.body);
    if (path === undefined) {
      next();
      return;
    }
    const { message, details } = nulCharacterProblem(path);
    next(new ApiError(400, 'invalid_request', message, details));
  };
}
