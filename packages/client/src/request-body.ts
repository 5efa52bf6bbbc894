// How a request body that is not JSON goes on the wire, by the kind the operation table gives its media
// type (carried by each generated function as its `write` plan):
//   multipart  a FormData: each file part the caller's Blob or File (a File's name is the part's
//              filename), each field its text; fetch sets `multipart/form-data; boundary=...` itself,
//              so no Content-Type is written here
//   text       the string, sent as `<media type>; charset=utf-8` (the table's text is UTF-8)
//   bytes      the Blob or bytes as they are, sent as the spec's media type
//   json       JSON text (only where an operation takes several media types and JSON is the one chosen;
//              a JSON-only operation goes through openapi-fetch's own serializer, as always)
// The encoded body is made once per call and handed to every attempt: a FormData, a Blob, a string and
// bytes in memory each make a new request body as often as asked, so a retried call resends the same
// body. A stream would not (it is read once), which is why no request body type here is a stream.
import type { MediaKind } from './answer-body.js';

/** One media type of a request body, as a generated function carries it. */
export interface WriteMedia {
  readonly mediaType: string;
  readonly kind: MediaKind;
  /**
   * Multipart: the file parts by name, each with the one media type its part declares (`encoding.
   * contentType`), or '' where it declares none or several. Every other property is a field.
   */
  readonly files?: { readonly [name: string]: string };
}

/** A body ready for openapi-fetch (passed through unchanged), and the Content-Type to send with it. */
export interface EncodedBody {
  readonly wire: FormData | Blob | ArrayBuffer | Uint8Array | string;
  /** Undefined for multipart: fetch writes it, with the boundary. */
  readonly contentType: string | undefined;
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * A Blob as its part sends it: one without a type, where the part declares exactly one media type, is
 * sent as that type (what the spec says the part is); any other goes as it is.
 */
function typedFile(file: Blob, declared: string): Blob {
  if (file.type !== '' || declared === '') return file;
  return typeof File !== 'undefined' && file instanceof File ? new File([file], file.name, { type: declared }) : new Blob([file], { type: declared });
}

function multipart(operationId: string, files: { readonly [name: string]: string }, body: unknown): FormData {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TypeError(`${operationId}: a multipart body is an object of its parts`);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    const declared = files[name];
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (declared === undefined) {
        form.append(name, fieldText(item));
        continue;
      }
      // The types refuse anything else; a JavaScript caller learns it here rather than from a 400.
      if (!(item instanceof Blob)) throw new TypeError(`${operationId}: the part "${name}" is a file: give a Blob or a File`);
      form.append(name, typedFile(item, declared));
    }
  }
  return form;
}

/** Encodes `body` as `media` says. */
export function encodeBody(operationId: string, media: WriteMedia, body: unknown): EncodedBody {
  switch (media.kind) {
    case 'multipart':
      return { wire: multipart(operationId, media.files ?? {}, body), contentType: undefined };
    case 'text':
      if (typeof body !== 'string') throw new TypeError(`${operationId}: a ${media.mediaType} body is a string`);
      return { wire: body, contentType: `${media.mediaType}; charset=utf-8` };
    case 'bytes':
      if (!(body instanceof Blob || body instanceof ArrayBuffer || body instanceof Uint8Array)) {
        throw new TypeError(`${operationId}: a ${media.mediaType} body is a Blob, an ArrayBuffer or a Uint8Array`);
      }
      return { wire: body, contentType: media.mediaType };
    case 'json':
      return { wire: JSON.stringify(body), contentType: media.mediaType };
  }
}
