// Writes a handler's answer as the spec says it is carried, by the media facts answer-check.ts chose from
// the operation's `responseMedia`: JSON with `charset=utf-8`; text with the spec's media type and
// `charset=utf-8`; bytes with the spec's media type; either whole (with its Content-Length) or streamed
// (answer-stream.ts); a status documented without content (a 204) with no body and no Content-Type.
// A HEAD answer is the GET's status and headers: node leaves any body out, and a streamed one is never
// read. The media type written is always the spec's, never one a handler spelled.
import type { Request, Response } from 'express';
import { isStream } from './answer-check.js';
import { discardStream, sendStream, type StreamLimit } from './answer-stream.js';
import type { MediaFacts } from './served-contract.js';

/** `text/csv; charset=utf-8`, `application/pdf`: the Content-Type of an answer in `media`. */
function contentTypeOf(media: MediaFacts): string {
  return media.kind === 'text' ? `${media.mediaType}; charset=${media.charset}` : media.mediaType;
}

/**
 * Writes `body` as JSON. Not express's `res.json`: its `res.send` answers `304` by itself to a GET whose
 * If-None-Match holds the ETag a handler set, a status an operation that does not declare it (getInvoice)
 * must never give. Conditional reads are the preconditions middleware's, for the operations whose spec
 * declares them.
 */
function sendJson(res: Response, body: unknown, mediaType: string): void {
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', `${mediaType}; charset=utf-8`);
  res.setHeader('Content-Length', String(Buffer.byteLength(text, 'utf8')));
  res.end(text);
}

/**
 * Sends `body` in `media` (undefined: a status the spec does not document, sent as JSON as before).
 * The status and the handler's headers are set. `check`: the operation whose answers are checked,
 * for the length of a streamed body. Returns a promise only for a streamed body (a JSON answer, the
 * most common by far, costs no promise of its own).
 */
export function sendAnswer(
  req: Request,
  res: Response,
  body: unknown,
  media: MediaFacts | null | undefined,
  check: string | undefined,
): Promise<void> | undefined {
  if (media === undefined || media?.kind === 'json') {
    if (body === undefined) res.end();
    else sendJson(res, body, media?.mediaType ?? 'application/json');
    return undefined;
  }
  if (media === null || body === undefined) {
    discardStream(body);
    res.end();
    return undefined;
  }
  res.setHeader('Content-Type', contentTypeOf(media));
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.setHeader('Content-Length', String(bytes.byteLength));
    res.end(bytes);
    return undefined;
  }
  if (!isStream(body)) throw new TypeError(`an answer in ${media.mediaType} must be a string, bytes or a stream`);
  if (req.method === 'HEAD') {
    discardStream(body);
    res.end();
    return undefined;
  }
  const limit: StreamLimit | undefined =
    check !== undefined && (media.kind === 'text' || media.kind === 'bytes') && media.maxLength !== undefined
      ? { operationId: check, status: res.statusCode, maxLength: media.maxLength, unit: media.kind === 'text' ? 'characters' : 'bytes' }
      : undefined;
  return sendStream(res, body, limit);
}
