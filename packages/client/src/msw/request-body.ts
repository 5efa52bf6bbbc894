// A request's body read as the operation table says it is carried (`requestMedia`:
// scripts/lib/media-shapes.mjs), refusing what the service's body step refuses, in its words
// (packages/server/src/http/media-types.ts, multipart-body.ts, plain-body.ts), before any schema
// check: a media type the operation does not take, or none where the body is required (415, naming
// the ones it takes); JSON or text in a charset other than UTF-8 (415); a body over its limit (413);
// multipart parts in stream order: a file where a field belongs or the reverse (400), a file of a
// media type its part does not list (415), whose first bytes are not what that type starts with
// (415: the contract's file signatures, as the service checks them) or over its maxLength (413), more parts than the spec
// declares (413), then a required file missing (400); JSON or multipart that does not parse (400).
// What is read is the body as the validator sees it: JSON parsed, text a string, bytes a Uint8Array,
// multipart an object of its parts (a file part its File, a field its text; arrays where a part
// takes several or a name repeats).
import {
  bodyNotUtf8,
  bodyTooLarge,
  fieldTooLarge,
  fileNotWhatItClaims,
  fileTooLarge,
  jsonErrorPosition,
  malformedJsonMessage,
  matchesSignature,
  type MediaRefusal,
  type OperationFacts,
  signatureLength,
  tooManyParts,
  unsupportedBodyType,
  wrongFileType,
} from '@invoice-api/contract';
import type { MediaFacts } from './answer-table.js';
import { invalid, invalidField, refusal, type Refusal } from './refusals.js';

/** The service's limit on a JSON body (express.json's `limit`), and on a text body whose schema states no maxLength. */
export const bodyLimitBytes = 1024 * 1024;
/** The service's default UPLOAD_FILE_LIMIT_BYTES: a file or byte body whose schema states no maxLength. */
export const fileLimitBytes = 10 * 1024 * 1024;
/** How many values a part that takes several may bring, where its schema states no maxItems (the service's). */
const defaultPartItems = 100;

type MultipartFacts = Extract<MediaFacts, { kind: 'multipart' }>;

export interface ReadBody {
  /** The media type the body was sent as; undefined when there is none. */
  mediaType?: string;
  /** Undefined: no body. */
  body: unknown;
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === undefined || type === '' ? undefined : type;
}

function charsetOf(contentType: string | null): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/** A media refusal of the contract's request checks, as the handler answers it. */
function refused(media: MediaRefusal): Refusal {
  return refusal(media.status, media.error, media.message, {}, media.details);
}

/**
 * JSON as express.json reads it: a syntax error is the service's 400, and an empty body is `{}` where
 * the operation takes a JSON body (the validator then names what is missing) and none where it takes none.
 */
async function readJson(request: Request, empty: unknown): Promise<{ body: unknown } | { refusal: Refusal }> {
  const text = await request.text();
  if (new TextEncoder().encode(text).length > bodyLimitBytes) return { refusal: refused(bodyTooLarge(bodyLimitBytes)) };
  if (text === '') return { body: empty };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return { refusal: invalid({ message: malformedJsonMessage(jsonErrorPosition(error instanceof Error ? error.message : '')) }) };
  }
}

type Part = MultipartFacts['parts'][number];

function itemsOf(part: Part): number {
  if (!part.multiple) return 1;
  return part.kind === 'file' ? (part.maxItems ?? defaultPartItems) : defaultPartItems;
}

/** The refusal of one part as it arrives, or undefined when the service reads it. */
async function partRefusal(name: string, value: string | File, part: Part | undefined): Promise<Refusal | undefined> {
  if (typeof value === 'string') {
    if (part?.kind === 'file') return invalidField(name, 'must be a file (a part with a filename), not a text field');
    if (new TextEncoder().encode(value).length > bodyLimitBytes) {
      return refused(fieldTooLarge(name, bodyLimitBytes));
    }
    return undefined;
  }
  if (part?.kind !== 'file') return invalidField(name, part === undefined ? 'is not a file this request takes' : 'must be text, not a file');
  // A file part without a Content-Type is text/plain (RFC 7578), as the service's parser reads it.
  const type = mediaTypeOf(value.type) ?? 'text/plain';
  if (part.contentTypes.length > 0 && !part.contentTypes.includes(type)) {
    return refused(wrongFileType(name, part.contentTypes, type));
  }
  // The service reads the first bytes as they arrive, before it knows the size: checked first.
  if (part.contentTypes.length > 0 && !matchesSignature(type, new Uint8Array(await value.slice(0, signatureLength).arrayBuffer()))) {
    return refused(fileNotWhatItClaims(name, type, part.contentTypes));
  }
  const limit = part.maxLength ?? fileLimitBytes;
  if (value.size > limit) {
    return refused(fileTooLarge(name, limit));
  }
  return undefined;
}

/**
 * A multipart body, part by part in the order sent (the service refuses at the first bad part), then
 * the count of parts and the required files; the parts as an object for the schema check, which
 * names a missing required field or an unknown one as it names a JSON property.
 */
async function readMultipart(request: Request, facts: MultipartFacts): Promise<{ body: unknown } | { refusal: Refusal }> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    return { refusal: invalid({ message: `The request body is not valid ${facts.mediaType}: ${error instanceof Error ? error.message : String(error)}.` }) };
  }
  const parts = new Map(facts.parts.map((part) => [part.name, part]));
  const limits = { files: 0, fields: 0 };
  for (const part of facts.parts) limits[part.kind === 'file' ? 'files' : 'fields'] += itemsOf(part);
  const counts = { files: 0, fields: 0 };
  const values = new Map<string, unknown>();
  // forEach, not entries(): the packed build's lib has no DOM.Iterable.
  const entries: Array<[string, string | File]> = [];
  form.forEach((value, name) => {
    entries.push([name, value]);
  });
  for (const [name, value] of entries) {
    // Counted before the part is looked at: the service's parser skips a part over the count unread.
    counts[typeof value === 'string' ? 'fields' : 'files'] += 1;
    if (counts.files > limits.files || counts.fields > limits.fields) {
      return { refusal: refused(tooManyParts(limits.files + limits.fields)) };
    }
    const part = parts.get(name);
    const problem = await partRefusal(name, value, part);
    if (problem !== undefined) return { refusal: problem };
    const existing = values.get(name);
    if (part?.multiple === true) values.set(name, [...((existing as unknown[] | undefined) ?? []), value]);
    else if (values.has(name)) values.set(name, [...(Array.isArray(existing) ? existing : [existing]), value]);
    else values.set(name, value);
  }
  const missing = facts.parts.find((part) => part.kind === 'file' && part.required && !values.has(part.name));
  if (missing !== undefined) {
    return { refusal: invalid({ message: `Missing required parameter '${missing.name}'.`, details: { field: missing.name, issue: 'is required' } }) };
  }
  return { body: Object.fromEntries(values) };
}

/** The body of `request` as `requestMedia` says it is carried, or the service's refusal of it. */
export async function readBody(request: Request, requestMedia: OperationFacts['requestMedia']): Promise<ReadBody | { refusal: Refusal }> {
  const contentType = request.headers.get('content-type');
  const mediaType = mediaTypeOf(contentType);
  // An operation without a body: the service's JSON parser still reads a JSON body it is sent.
  if (requestMedia === null) {
    if (mediaType !== 'application/json') return { body: undefined };
    const json = await readJson(request, undefined);
    return 'refusal' in json ? json : { mediaType, ...json };
  }
  const accepted = requestMedia.media.map((media) => media.mediaType);
  if (mediaType === undefined) return requestMedia.required ? { refusal: refused(unsupportedBodyType(accepted)) } : { body: undefined };
  const facts = requestMedia.media.find((media) => media.mediaType === mediaType);
  if (facts === undefined) return { refusal: refused(unsupportedBodyType(accepted)) };
  // JSON as body-parser reads it (any `utf-*`); text in UTF-8 alone, the charset the table gives it.
  const charset = charsetOf(contentType);
  const utf8 = charset === undefined || (facts.kind === 'json' ? charset.startsWith('utf-') : charset === 'utf-8' || charset === 'utf8');
  if ((facts.kind === 'json' || facts.kind === 'text') && !utf8) return { refusal: refused(bodyNotUtf8(facts.mediaType)) };
  switch (facts.kind) {
    case 'json': {
      const json = await readJson(request, {});
      return 'refusal' in json ? json : { mediaType, ...json };
    }
    case 'text': {
      // The schema's maxLength counts characters, which the validator checks; the service stops reading
      // at four bytes a character (the most UTF-8 spends on one).
      const limit = facts.maxLength === undefined ? bodyLimitBytes : Math.max(1, facts.maxLength * 4);
      const text = await request.text();
      if (new TextEncoder().encode(text).length > limit) return { refusal: refused(bodyTooLarge(limit)) };
      return { mediaType, body: text };
    }
    case 'bytes': {
      const bytes = new Uint8Array(await request.arrayBuffer());
      const limit = facts.maxLength ?? fileLimitBytes;
      if (bytes.length > limit) return { refusal: refused(bodyTooLarge(limit)) };
      return { mediaType, body: bytes };
    }
    case 'multipart': {
      const multipart = await readMultipart(request, facts);
      return 'refusal' in multipart ? multipart : { mediaType, ...multipart };
    }
  }
}
