// A request body that is text or bytes, read whole by body-parser (which also undoes a Content-Encoding
// and refuses a body that stops short) under a limit derived from the media facts: a text reaches the
// handler as a string, bytes as a Buffer (a Uint8Array).
// - Text is UTF-8 (the table's `charset`); another charset is 415. Its schema's `maxLength` counts
//   characters, which the validator checks; reading stops at four bytes per character (the most UTF-8
//   spends on one), so that a body that cannot be valid is not read whole. Without a `maxLength`,
//   the product's 1 MiB body limit.
// - Bytes are bounded by their schema's `maxLength` (bytes), else by the configured upload limit
//   (UPLOAD_FILE_LIMIT_BYTES).
// Over the limit is 413, saying which limit.
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../config.js';
import { bodyTooLarge, charsetOf, isUtf8, notUtf8 } from './media-types.js';
import type { MediaFacts } from './served-contract.js';

type PlainMedia = Extract<MediaFacts, { kind: 'text' | 'bytes' }>;

/** The most bytes a body in `media` may take. */
export function plainBodyLimit(media: PlainMedia, fileLimitBytes: number): number {
  if (media.kind === 'text') return media.maxLength === undefined ? BODY_LIMIT_BYTES : Math.max(1, media.maxLength * 4);
  return media.maxLength ?? fileLimitBytes;
}

function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'type' in error && error.type === 'entity.too.large';
}

export function plainBody(media: PlainMedia, fileLimitBytes: number): RequestHandler {
  const limit = plainBodyLimit(media, fileLimitBytes);
  // The media type was matched already (request-body.ts): whatever arrives here is read.
  const read = media.kind === 'text' ? express.text({ type: () => true, limit, defaultCharset: 'utf-8' }) : express.raw({ type: () => true, limit });
  return (req, res, next) => {
    if (media.kind === 'text' && !isUtf8(charsetOf(req.headers['content-type']))) {
      next(notUtf8(media.mediaType));
      return;
    }
    read(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) {
        next(isTooLarge(error) ? bodyTooLarge(limit) : error);
        return;
      }
      // A Content-Type with no content is an empty text (or no bytes), which the schema judges
      // (`minLength`); body-parser leaves such a body unset.
      req.body ??= media.kind === 'text' ? '' : Buffer.alloc(0);
      next();
    });
  };
}
