// The JSON body parser. Not strict: `true` or `[1]` is valid JSON that is not an object;
// json-object-body.ts names it (after the path parameters), where the parser would only say "not
// valid JSON". A UTF-8 body (what nearly every client sends) is parsed with a look at its raw bytes
// for the NUL escape (nul-characters.ts), which spares most bodies a walk after validation. Other
// charsets go to the plain parser: body-parser checks a charset earlier when `verify` is set, which
// would turn an oversize body in an unknown `utf-*` charset from 413 into 415.
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../config.js';
import { charsetOf } from './media-types.js';
import { noteNulEscapes } from './nul-characters.js';

/** The parser of JSON bodies in `mediaType` (`application/json`, or another JSON type the spec names). */
export function jsonBody(mediaType = 'application/json'): RequestHandler {
  const options = { limit: BODY_LIMIT_BYTES, strict: false, type: mediaType };
  const withNulNote = express.json({ ...options, verify: noteNulEscapes });
  const plain = express.json(options);
  return (req, res, next) => {
    const charset = charsetOf(req.get('content-type'));
    const parser = charset === undefined || charset === 'utf-8' || charset === 'utf8' ? withNulNote : plain;
    parser(req, res, next);
  };
}
