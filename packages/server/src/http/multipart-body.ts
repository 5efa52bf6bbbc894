// A multipart/form-data request body, read with busboy under limits derived from the operation's media
// facts (`parts`: each property a field or a file, from the spec at generate time), and handed to the
// validator and the handler as an object: each file a web `File` (name, type, size, bytes), an array
// of them for a part that takes several, each field its text.
//
// Files are checked for real, as they arrive, before any of their bytes is kept:
// - a part the spec declares as a file must come as a file (a part with a filename): a text field in
//   its place is 400, as is a file in place of a text field or a file part the spec does not declare;
// - the part's Content-Type must be one its `encoding.contentType` allows: else 415, the RFC 9110
//   status for content in a format the operation does not take (found by inspecting the content), with
//   `details.field` naming the part and the message naming the allowed types;
// - the file's first bytes must be what its declared type starts with (file-signatures.ts in the
//   contract: `%PDF-` for application/pdf, the PNG and JPEG signatures): else 415, read from the first
//   chunk that completes them, so a text renamed `.pdf` is refused before the rest of it arrives; a
//   declared type without a known signature is not checked;
// - a file over its schema's `maxLength` (else over UPLOAD_FILE_LIMIT_BYTES) is 413 as soon as it
//   passes the limit; more files or fields than the spec declares is 413 too;
// - a required file that is missing is 400, in the validator's words.
// On a refusal the parser is unplugged and the rest of the body is drained unread: nothing more is
// kept, and the client, still sending, gets the answer (a connection closed on unread data would
// often lose it to a TCP reset). REQUEST_TIMEOUT_MS bounds how long a client may keep sending.
// The fields, the object's closedness and the required fields stay the validator's (its spec has the
// file properties accepting any value: scripts/lib/validator-spec.mjs).
import busboy from 'busboy';
import { fieldTooLarge, fileNotWhatItClaims, fileTooLarge, matchesSignature, signatureLength, tooManyParts, wrongFileType } from '@invoice-api/contract';
import type { Request, RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../config.js';
import { ApiError } from '../errors.js';
import { mediaError } from './media-types.js';
import type { FilePart, MediaFacts, MultipartPart } from './served-contract.js';

type MultipartMedia = Extract<MediaFacts, { kind: 'multipart' }>;

/** How many values a part that takes several may bring, where its schema states no `maxItems`. */
export const defaultPartItems = 100;

/** What the facts allow a multipart body to hold, worked out once per operation. */
interface PartLimits {
  parts: ReadonlyMap<string, MultipartPart>;
  files: number;
  fields: number;
  /** The largest file any part takes: busboy's own bound, one byte above it (busboy stops AT its limit). */
  largestFile: number;
}

function itemsOf(part: MultipartPart): number {
  if (!part.multiple) return 1;
  return part.kind === 'file' ? (part.maxItems ?? defaultPartItems) : defaultPartItems;
}

export function fileLimitOf(part: FilePart, fileLimitBytes: number): number {
  return part.maxLength ?? fileLimitBytes;
}

function partLimits(media: MultipartMedia, fileLimitBytes: number): PartLimits {
  const files = media.parts.filter((part): part is FilePart => part.kind === 'file');
  return {
    parts: new Map(media.parts.map((part) => [part.name, part])),
    files: files.reduce((sum, part) => sum + itemsOf(part), 0),
    fields: media.parts.filter((part) => part.kind === 'field').reduce((sum, part) => sum + itemsOf(part), 0),
    largestFile: Math.max(0, ...files.map((part) => fileLimitOf(part, fileLimitBytes))),
  };
}

function invalidPart(name: string, issue: string): ApiError {
  return ApiError.invalid(name, issue);
}

/** Appends `value` under `name`: an array for a part that takes several, or for a name sent twice. */
function add(values: Map<string, unknown>, part: MultipartPart | undefined, name: string, value: unknown): void {
  const existing = values.get(name);
  if (part?.multiple === true) values.set(name, [...((existing as unknown[] | undefined) ?? []), value]);
  else if (values.has(name)) values.set(name, [...(Array.isArray(existing) ? existing : [existing]), value]);
  else values.set(name, value);
}

export function multipartBody(media: MultipartMedia, fileLimitBytes: number): RequestHandler {
  const limits = partLimits(media, fileLimitBytes);
  const requiredFiles = media.parts.filter((part): part is FilePart => part.kind === 'file' && part.required);
  return (req, _res, next) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      next(new ApiError(415, 'unsupported_media_type', `The request body must not be compressed (Content-Encoding: ${encoding}) for ${media.mediaType}.`));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Files and fields beyond what the spec declares are refused rather than read; busboy skips a part
        // over a count and reports it, and stops a file at fileSize (set above every part's own limit).
        limits: {
          files: limits.files,
          fields: limits.fields,
          parts: limits.files + limits.fields + 1,
          fileSize: limits.largestFile + 1,
          fieldSize: BODY_LIMIT_BYTES,
        },
        // RFC 7578: names and filenames are UTF-8.
        defParamCharset: 'utf8',
      });
    } catch (error) {
      // No boundary, a malformed Content-Type.
      next(
        new ApiError(400, 'invalid_request', `The request body is not valid ${media.mediaType}: ${error instanceof Error ? error.message : String(error)}.`),
      );
      return;
    }
    const values = new Map<string, unknown>();
    let settled = false;
    const refuse = (error: ApiError): void => {
      if (settled) return;
      settled = true;
      stopReading(req, parser);
      next(error);
    };

    parser.on('file', (name, stream, info) => {
      // Until the part is known to be wanted, nothing of it is kept; a refused part is let run to waste.
      stream.on('error', () => undefined);
      const part = limits.parts.get(name);
      if (part?.kind !== 'file') {
        stream.resume();
        refuse(invalidPart(name, part === undefined ? 'is not a file this request takes' : 'must be text, not a file'));
        return;
      }
      const type = info.mimeType.toLowerCase();
      if (part.contentTypes.length > 0 && !part.contentTypes.includes(type)) {
        stream.resume();
        refuse(mediaError(wrongFileType(name, part.contentTypes, type)));
        return;
      }
      const limit = fileLimitOf(part, fileLimitBytes);
      const chunks: Buffer[] = [];
      let size = 0;
      // The bytes are checked against the declared type once enough of them are in (or at the end, for
      // a file shorter than the signature); only the type the part declared is checked.
      let signatureChecked = part.contentTypes.length === 0;
      const checkSignature = (): boolean => {
        signatureChecked = true;
        const first = Buffer.concat(chunks).subarray(0, signatureLength);
        if (matchesSignature(type, first)) return true;
        refuse(mediaError(fileNotWhatItClaims(name, type, part.contentTypes)));
        return false;
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (settled) return;
        chunks.push(chunk);
        if (!signatureChecked && size >= signatureLength && !checkSignature()) return;
        if (size > limit) refuse(mediaError(fileTooLarge(name, limit)));
      });
      stream.on('limit', () => refuse(mediaError(fileTooLarge(name, limit))));
      stream.on('end', () => {
        if (settled || (!signatureChecked && !checkSignature())) return;
        add(values, part, name, new File(chunks, info.filename ?? '', { type }));
      });
    });
    parser.on('field', (name, value, info) => {
      const part = limits.parts.get(name);
      if (part?.kind === 'file') refuse(invalidPart(name, 'must be a file (a part with a filename), not a text field'));
      else if (info.valueTruncated) refuse(mediaError(fieldTooLarge(name, BODY_LIMIT_BYTES)));
      else if (info.nameTruncated) refuse(invalidPart(name.slice(0, 100), 'is not a field this request takes'));
      else add(values, part, name, value);
    });
    const overCount = (): void => refuse(mediaError(tooManyParts(limits.files + limits.fields)));
    parser.on('filesLimit', overCount);
    parser.on('fieldsLimit', overCount);
    parser.on('partsLimit', overCount);
    parser.on('error', (error: unknown) => {
      refuse(
        new ApiError(400, 'invalid_request', `The request body is not valid ${media.mediaType}: ${error instanceof Error ? error.message : String(error)}.`),
      );
    });
    parser.on('close', () => {
      if (settled) return;
      const missing = requiredFiles.find((part) => !values.has(part.name));
      if (missing !== undefined) {
        refuse(ApiError.invalid(missing.name, 'is required', `Missing required parameter '${missing.name}'.`));
        return;
      }
      settled = true;
      // fromEntries defines each name as an own property: a part named `__proto__` stays a property.
      req.body = Object.fromEntries(values);
      next();
    });
    // A client that goes away before the end: the parser never finishes, so the request ends here.
    req.on('close', () => {
      if (!req.complete) refuse(new ApiError(400, 'invalid_request', 'The request body was not received completely.'));
    });
    req.pipe(parser);
  };
}

/** Unplugs the parser and lets the rest of the body run unread (what body-parser does past its limit). */
function stopReading(req: Request, parser: busboy.Busboy): void {
  req.unpipe(parser);
  req.resume();
  // Without listeners busboy skips any further part; what it still holds of the current one goes nowhere.
  parser.removeAllListeners('file');
  parser.removeAllListeners('field');
  parser.on('error', () => undefined);
  // Not from inside busboy's own callbacks, where a refusal is mostly decided: busboy goes on with the
  // chunk at hand when the callback returns, and would find its state gone.
  setImmediate(() => parser.destroy());
}
