// Every answer the service sends is checked against the spec first (RESPONSE_VALIDATION, on unless a
// benchmark turns it off): the handlers' answers and the error answers alike, for the operation the
// request addressed. A JSON body is checked by the validators `pnpm generate` compiled from the strict
// bundle (closed objects, closed enums; the served contract's response validators): nothing is
// compiled at run time, and an answer costs one call of its status's validator. Any other body is
// checked as far as its schema allows, from the table's media facts: its media type is one the status
// documents, a status without content sends none, a text is a string (or a stream of one) and bytes
// are bytes (or a stream of them), within the schema's `maxLength` (a stream's length is counted while
// it is sent: answer-stream.ts). A mismatch is a bug of the service: it is logged, with the path and
// rule it broke, and answered as a 500 that shows neither.
import { answerIssue, type OperationId, type ResponseIssue, type ResponseValidatorTable } from '@invoice-api/contract';
import type { OperationEntry } from './locals.js';
import type { AnswerValidators, MediaFacts } from './served-contract.js';

export class AnswerMismatch extends Error {
  override readonly name = 'AnswerMismatch';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly issue: ResponseIssue,
  ) {
    super(`${operationId}: the ${status} answer does not match the spec at ${issue.path}: ${issue.rule} (${issue.message})`);
  }
}

/**
 * The media facts an answer is sent with: the one the handler named (`mediaType`), else the status's
 * first (the only one, mostly); null for a status the spec documents without content; undefined for a
 * status it does not document (the check reports that; unchecked, the body is sent as JSON, as before).
 * A named media type the status does not list is a mismatch whether answers are checked or not: the
 * service would not know how to write it.
 */
export function answerMedia(operation: OperationEntry, status: number, mediaType: string | undefined): MediaFacts | null | undefined {
  const listed = operation.responseMedia[status];
  if (listed === undefined) return undefined;
  if (listed.length === 0) {
    if (mediaType === undefined) return null;
  } else {
    const media = mediaType === undefined ? listed[0] : listed.find((candidate) => candidate.mediaType === mediaType);
    if (media !== undefined) return media;
  }
  const documented = listed.length === 0 ? 'no content' : listed.map((media) => media.mediaType).join(', ');
  throw new AnswerMismatch(operation.operationId, status, { path: '$', rule: 'mediaType', message: `sent as ${mediaType}; the spec documents ${documented}` });
}

/** Whether a handler's body is a stream (a Node Readable, a web ReadableStream, an async iterable). */
export function isStream(body: unknown): body is AsyncIterable<unknown> {
  return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

/** Characters as JSON Schema's `maxLength` counts them: code points, not UTF-16 units. */
function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}

/** The issue of a body over its schema's `maxLength`, in the words of the JSON checks. */
export function maxLengthIssue(maxLength: number, unit: 'characters' | 'bytes'): ResponseIssue {
  return { path: '$', rule: 'maxLength', message: `must NOT have more than ${maxLength} ${unit}` };
}

/** Where a body that is not JSON breaks its media facts; undefined when it keeps them. */
function mediaIssue(media: MediaFacts | null, body: unknown): ResponseIssue | undefined {
  if (media === null) return body === undefined ? undefined : { path: '$', rule: 'content', message: 'the spec documents no content for this status' };
  switch (media.kind) {
    case 'text':
      if (isStream(body)) return undefined;
      if (typeof body !== 'string') return { path: '$', rule: 'type', message: `must be a string or a stream of text (${media.mediaType})` };
      // Bytes bound characters from above: count code points only when the bytes could exceed the limit.
      if (media.maxLength !== undefined && body.length > media.maxLength && codePoints(body) > media.maxLength)
        return maxLengthIssue(media.maxLength, 'characters');
      return undefined;
    case 'bytes':
      if (isStream(body)) return undefined;
      if (!(body instanceof Uint8Array)) return { path: '$', rule: 'type', message: `must be bytes or a stream of bytes (${media.mediaType})` };
      if (media.maxLength !== undefined && body.byteLength > media.maxLength) return maxLengthIssue(media.maxLength, 'bytes');
      return undefined;
    case 'multipart':
      return { path: '$', rule: 'mediaType', message: `the service does not send ${media.mediaType} answers` };
    case 'json':
      return undefined;
  }
}

/**
 * The mismatch of this answer with the spec, or undefined when it matches. `media` is answerMedia's:
 * undefined (or JSON) checks the body with the status's compiled validator.
 */
export function answerMismatch(
  validators: AnswerValidators,
  operation: OperationEntry,
  status: number,
  body: unknown,
  media?: MediaFacts | null,
): AnswerMismatch | undefined {
  const issue =
    media === undefined || media?.kind === 'json'
      ? // The contract's answerIssue is typed by the product's operationIds; it only indexes the table it is given.
        answerIssue(validators as ResponseValidatorTable, operation.operationId as OperationId, status, body)
      : mediaIssue(media, body);
  return issue === undefined ? undefined : new AnswerMismatch(operation.operationId, status, issue);
}

/** A check of this operation's JSON answers that throws the mismatch (a keyed write's, before it is stored). */
export function answerChecker(validators: AnswerValidators, operation: OperationEntry): (status: number, body: unknown) => void {
  return (status, body) => {
    const mismatch = answerMismatch(validators, operation, status, body);
    if (mismatch !== undefined) throw mismatch;
  };
}
