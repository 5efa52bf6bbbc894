// How a success answer's body is read, by the kind the operation table gives each media type of its
// status (carried by each generated function as its `read` plan), so that no call names a `parseAs`:
//   no content (`[]`: a 204, a 304)  undefined
//   json                      the parsed JSON (a body that is not JSON: UnexpectedResponseError)
//   text                      a string (fetch decodes UTF-8, the table's charset)
//   bytes                     a Blob, of the answer's Content-Type (the spec's media type where the
//                             answer names none)
//   multipart                 a FormData
// A status that lists several media types is read by the answer's Content-Type; one the status does
// not list is an UnexpectedResponseError, since no type of `data` would then be true. A call that asked
// for one media type (`accept`) and got another is one too, for the same reason. A call that asked for
// a stream (`{ stream: true }`) gets the body unread, as a `ReadableStream`, whatever its kind.
// Only operations whose success answers are not all JSON have a read plan; the JSON-only operations are
// read by openapi-fetch, as they always were.
import { UnexpectedResponseError } from './result.js';
import type { OperationId } from '@invoice-api/contract';

/** The kinds of media type the operation table knows (scripts/lib/media-shapes.mjs). */
export type MediaKind = 'json' | 'text' | 'bytes' | 'multipart';

/** Each documented success status (as the spec writes it) with its media types and their kinds, in the spec's order. */
export interface ReadPlan {
  readonly [status: string]: ReadonlyArray<readonly [mediaType: string, kind: MediaKind]>;
}

/** What the call asked for. */
export interface ReadWish {
  stream: boolean;
  accept: string | undefined;
}

export interface ReadBody {
  data: unknown;
  /** Whether `data` is JSON, which `validateResponses` checks against the spec (a Blob or a stream it cannot). */
  json: boolean;
}

/** The media type of an answer without its parameters, lower case: `text/csv; charset=utf-8` -> `text/csv`. */
export function essence(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** An empty body, for a stream asked of an answer that carries none. */
const emptyStream = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

async function readJson(operationId: OperationId, requestId: string, response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') throw new UnexpectedResponseError(operationId, response.status, requestId, 'empty body');
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(operationId, response.status, requestId, 'body is not JSON');
  }
}

/** Reads the body of a success answer as the plan says. */
export async function readAnswer(operationId: OperationId, requestId: string, response: Response, plan: ReadPlan, wish: ReadWish): Promise<ReadBody> {
  const media = plan[String(response.status)];
  // A success the spec does not document is read as JSON, as openapi-fetch reads every other one.
  if (media === undefined)
    return { data: wish.stream ? (response.body ?? emptyStream()) : await readJson(operationId, requestId, response), json: !wish.stream };
  if (media.length === 0) {
    // Nothing to read; anything that came anyway is let go, so the connection is free again.
    await response.body?.cancel().catch(() => undefined);
    return { data: undefined, json: false };
  }
  const received = essence(response.headers.get('Content-Type'));
  const chosen = media.length === 1 ? media[0] : media.find(([mediaType]) => mediaType === received);
  if (chosen === undefined) {
    await response.body?.cancel().catch(() => undefined);
    const listed = media.map(([mediaType]) => mediaType).join(', ');
    throw new UnexpectedResponseError(operationId, response.status, requestId, `Content-Type ${received || 'none'}, not one of ${listed}`);
  }
  const [mediaType, kind] = chosen;
  if (wish.accept !== undefined && media.some(([listed]) => listed === wish.accept) && mediaType !== wish.accept) {
    await response.body?.cancel().catch(() => undefined);
    throw new UnexpectedResponseError(operationId, response.status, requestId, `asked for ${wish.accept}, answered ${mediaType}`);
  }
  if (wish.stream) return { data: response.body ?? emptyStream(), json: false };
  switch (kind) {
    case 'json':
      return { data: await readJson(operationId, requestId, response), json: true };
    case 'text':
      return { data: await response.text(), json: false };
    case 'bytes': {
      const blob = await response.blob();
      // Wrapping a Blob in a Blob copies no bytes: it only gives it the type the spec says it has.
      return { data: blob.type === '' ? new Blob([blob], { type: mediaType }) : blob, json: false };
    }
    case 'multipart':
      return { data: await response.formData(), json: false };
  }
}
