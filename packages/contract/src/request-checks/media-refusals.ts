// The refusals of a request body for its media type and its size, worded once: the service's body
// steps (packages/server/src/http/*-body.ts) and the client's MSW handlers both raise them, so a mock
// refuses an upload with the service's status and words. The limits and media types come from the
// operation table's `requestMedia`; nothing here names a type.
import type { ErrorCode } from '../schemas.js';
import { fileSignatureOf } from './file-signatures.js';

export interface MediaRefusal {
  status: 413 | 415;
  error: Extract<ErrorCode, 'payload_too_large' | 'unsupported_media_type'>;
  message: string;
  /** The part a multipart refusal is about, and what it must be. */
  details?: { field: string; issue: string };
}

/** `1 MiB`, `10 MiB`, `512 KiB`, `4000 bytes`: a limit as people read it. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** `application/json`, or `one of application/json, text/csv`. */
export function oneOfMediaTypes(types: readonly string[]): string {
  return types.length === 1 ? (types[0] ?? '') : `one of ${types.join(', ')}`;
}

/** 415 for a body in a media type the operation does not take (or none, where it requires one). */
export function unsupportedBodyType(accepted: readonly string[]): MediaRefusal {
  return { status: 415, error: 'unsupported_media_type', message: `The request body must be ${oneOfMediaTypes(accepted)}.` };
}

/** 415 for a JSON or text body in another charset than UTF-8, the one the table says text is carried in. */
export function bodyNotUtf8(mediaType: string): MediaRefusal {
  return { status: 415, error: 'unsupported_media_type', message: `The request body must be ${mediaType} in UTF-8.` };
}

/** 413 for a whole body over its limit. */
export function bodyTooLarge(limit: number): MediaRefusal {
  return { status: 413, error: 'payload_too_large', message: `The request body is larger than ${describeBytes(limit)}.` };
}

/** 413 for a multipart text field over the limit of a body. */
export function fieldTooLarge(name: string, limit: number): MediaRefusal {
  return { status: 413, error: 'payload_too_large', message: `The field '${name}' is larger than ${describeBytes(limit)}.` };
}

/** 413 for a multipart file over its part's maxLength (or the upload limit). */
export function fileTooLarge(name: string, limit: number): MediaRefusal {
  return {
    status: 413,
    error: 'payload_too_large',
    message: `The file '${name}' is larger than ${describeBytes(limit)}.`,
    details: { field: name, issue: `must be at most ${limit} bytes` },
  };
}

/** 415 for a multipart file of a media type its part does not list. */
export function wrongFileType(name: string, allowed: readonly string[], sent: string): MediaRefusal {
  const issue = `must be ${oneOfMediaTypes(allowed)}`;
  return { status: 415, error: 'unsupported_media_type', message: `The file '${name}' is ${sent}; it ${issue}.`, details: { field: name, issue } };
}

/** `application/pdf`, `application/pdf or image/png`, `application/pdf, image/png or image/jpeg`. */
function eitherOf(types: readonly string[]): string {
  return types.length <= 1 ? (types[0] ?? '') : `${types.slice(0, -1).join(', ')} or ${types.at(-1)}`;
}

/**
 * 415 for a multipart file whose first bytes are not what its declared media type starts with
 * (file-signatures.ts): a text renamed `.pdf` and declared application/pdf. `allowed`: the types the
 * part takes, which the declared one is among.
 */
export function fileNotWhatItClaims(name: string, declared: string, allowed: readonly string[]): MediaRefusal {
  const issue = `must be ${eitherOf(allowed)}`;
  const what = fileSignatureOf(declared)?.label ?? declared;
  return {
    status: 415,
    error: 'unsupported_media_type',
    message: `The file '${name}' is declared ${declared}, but its bytes are not a ${what}; it ${issue}.`,
    details: { field: name, issue },
  };
}

/** 413 for a multipart body with more parts than the spec declares (`partCount`: files and fields together). */
export function tooManyParts(partCount: number): MediaRefusal {
  return { status: 413, error: 'payload_too_large', message: `The request body has more parts than the ${partCount} this operation takes.` };
}
