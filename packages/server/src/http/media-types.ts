// What the body steps say about media types and sizes, in one wording: which media type a request
// declares, the 415 naming the ones the operation accepts (from its `requestMedia`), and the 413 of a
// body or file over its limit. The facts come from the operation's entry; nothing here names a type.
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

/** `application/json`, or `one of application/json, text/csv`: what the operation accepts. */
export function acceptedMediaTypes(requestMedia: NonNullable<RequestMedia>): string {
  const types = requestMedia.media.map((media) => media.mediaType);
  return types.length === 1 ? (types[0] ?? '') : `one of ${types.join(', ')}`;
}

/** 415 for a body in a media type the operation does not take (or none, where it requires one). */
export function unsupportedMediaType(requestMedia: NonNullable<RequestMedia>): ApiError {
  return new ApiError(415, 'unsupported_media_type', `The request body must be ${acceptedMediaTypes(requestMedia)}.`);
}

/** 415 for a text body in another charset than UTF-8, the one the table says text is carried in. */
export function notUtf8(mediaType: string): ApiError {
  return new ApiError(415, 'unsupported_media_type', `The request body must be ${mediaType} in UTF-8.`);
}

/** `1 MiB`, `10 MiB`, `512 KiB`, `4000 bytes`: a limit as people read it. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** 413 for a whole body over its limit. */
export function bodyTooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `The request body is larger than ${describeBytes(limit)}.`);
}
