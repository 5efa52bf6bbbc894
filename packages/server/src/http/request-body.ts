// Reads the request body as the operation's `requestMedia` says it comes (the generated table's facts,
// derived once from the spec by scripts/lib/media-shapes.mjs): the Content-Type must name one of the
// media types the operation lists, else 415 naming them; the body is then read by its kind's reader
// (json-body.ts, plain-body.ts, multipart-body.ts) under limits from the same facts, and
// `res.locals.requestMedia` records which media type it was for the steps after (and for the handler
// of an operation that takes several).
//
// The JSON-only operation (every operation of the product) keeps its parser, reached with a look at the
// Content-Type that allocates nothing for the common spellings. An operation without a request body
// parses a JSON body as before and leaves any other unread.
import type { RequestHandler } from 'express';
import { jsonBody } from './json-body.js';
import type { OperationEntry } from './locals.js';
import { mediaTypeOf, unsupportedMediaType } from './media-types.js';
import { multipartBody } from './multipart-body.js';
import { plainBody } from './plain-body.js';
import type { MediaFacts } from './served-contract.js';

export interface RequestBodyOptions {
  /** The served contract's operations: a reader is made once for each media type a request may use. */
  operations: { readonly [operationId: string]: OperationEntry };
  /** The largest file of an upload whose schema states no maxLength (config.uploads). */
  fileLimitBytes: number;
}

function readerFor(media: MediaFacts, options: RequestBodyOptions, json: RequestHandler): RequestHandler {
  switch (media.kind) {
    case 'json':
      return media.mediaType === 'application/json' ? json : jsonBody(media.mediaType);
    case 'text':
    case 'bytes':
      return plainBody(media, options.fileLimitBytes);
    case 'multipart':
      return multipartBody(media, options.fileLimitBytes);
  }
}

/**
 * `application/json` as nearly every client writes it (`application/json`, `application/json;
 * charset=utf-8`), recognised without allocating; anything else is parsed (mediaTypeOf).
 */
function isJson(contentType: string): boolean {
  if (contentType.startsWith('application/json')) {
    const next = contentType.charCodeAt(16);
    // The end, `;` or a space: not `application/jsonx`.
    if (Number.isNaN(next) || next === 0x3b || next === 0x20) return true;
  }
  return mediaTypeOf(contentType) === 'application/json';
}

export function requestBody(options: RequestBodyOptions): RequestHandler {
  const json = jsonBody();
  // Keyed by the facts object itself: the entry the resolver attached holds the very same objects.
  const readers = new Map<MediaFacts, RequestHandler>();
  for (const operation of Object.values(options.operations)) {
    for (const media of operation.requestMedia?.media ?? []) readers.set(media, readerFor(media, options, json));
  }
  return (req, res, next) => {
    const requestMedia = res.locals.operation?.requestMedia;
    if (requestMedia === undefined || requestMedia === null) {
      json(req, res, next);
      return;
    }
    const contentType = req.headers['content-type'];
    if (contentType === undefined) {
      // A required body needs its media type; without one, an optional body is left unread (as the
      // validator, which judges such a request as one without a body).
      if (requestMedia.required) next(unsupportedMediaType(requestMedia));
      else next();
      return;
    }
    const only = requestMedia.media.length === 1 ? requestMedia.media[0] : undefined;
    if (only !== undefined && only.kind === 'json' && only.mediaType === 'application/json') {
      // A JSON-only operation: the same parser with no lookup (an empty body declared as JSON is the
      // validator's to judge: a required body is missing).
      if (isJson(contentType)) json(req, res, next);
      else next(unsupportedMediaType(requestMedia));
      return;
    }
    const mediaType = mediaTypeOf(contentType);
    const media = requestMedia.media.find((candidate) => candidate.mediaType === mediaType);
    const read = media === undefined ? undefined : readers.get(media);
    if (media === undefined || read === undefined) {
      next(unsupportedMediaType(requestMedia));
      return;
    }
    res.locals.requestMedia = media;
    read(req, res, next);
  };
}
