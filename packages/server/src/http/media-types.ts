// What the body steps read of a request's media type (its type and charset), and their refusals as the
// service's errors: the 415 naming the media types the operation accepts (from its `requestMedia`) and
// the 413 of a body over its limit, worded by the contract's request checks (media-refusals.ts), which
// the MSW handlers word theirs with too.
import { bodyNotUtf8, bodyTooLarge as wholeBodyTooLarge, type MediaRefusal, unsupportedBodyType } from '@invoice-api/contract';
import { ApiError } from '../errors.js';
import type { RequestMedia } from './served-contract.js';

/** `Multipart/Form-Data; boundary=x` -> `multipart/form-data`; undefined without a Content-Type. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const end = contentType.indexOf(';');
  return (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

/** The charset parameter of a Content-Type, lower case; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/** Whether a charset parameter names UTF-8 (or is absent: UTF-8 is the default of every body read here). */
export function isUtf8(charset: string | undefined): boolean {
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** The service's error for a media refusal worded by the contract's request checks. */
export function mediaError(refusal: MediaRefusal): ApiError {
  return new ApiError(refusal.status, refusal.error, refusal.message, refusal.details);
}

/** 415 for a body in a media type the operation does not take (or none, where it requires one). */
export function unsupportedMediaType(requestMedia: NonNullable<RequestMedia>): ApiError {
  return mediaError(unsupportedBodyType(requestMedia.media.map((media) => media.mediaType)));
}

/** 415 for a text body in another charset than UTF-8, the one the table says text is carried in. */
export function notUtf8(mediaType: string): ApiError {
  return mediaError(bodyNotUtf8(mediaType));
}

/** 413 for a whole body over its limit. */
export function bodyTooLarge(limit: number): ApiError {
  return mediaError(wholeBodyTooLarge(limit));
}
