// The typed handler contract: for each operationId, what a handler receives (path, query, body) and the
// only answers it may give (a documented status with that status's body, together). Adding an operation
// to the spec and running `pnpm generate` makes a handler map without it fail to compile.
//
// Two generated facts meet here, each derived once at generate time: openapi-typescript's `operations`
// gives the TypeScript shape of each schema (a JSON body, a text body's string type, the property names
// and optionality of a multipart body), and the operation table's `requestMedia` / `responseMedia` give
// the media types of each body and the KIND of each (scripts/lib/media-shapes.mjs). The kind is read
// from the table's literal types, never re-derived here from the media-type strings.
//
// What a handler returns, per documented status and by the kind of its media type:
//   no content (`[]`)  `{ status: 204 }`: no `body` at all (`body?: never`).
//   json               `{ status, body }`, the schema's type, as before.
//   text (`text/*`)    `{ status, body }`, a string (the schema's string type) or a TextStream.
//   bytes (any other)  `{ status, body }`, a Uint8Array (a Buffer fits) or a ByteStream, so a large
//                      answer (a PDF export) is never held whole.
//   several types      one variant per media type, `{ status, mediaType: 'text/csv', body }`: the
//                      handler says which it sends, and `mediaType` is required.
// What a handler receives as `request.body`: JSON as the schema's type; text as a string; bytes as a
// Uint8Array; multipart as an object of the schema's properties, each file part a web `File`
// (`File[]` where the part is an array of files), each field its text (see FormBody). Where the request
// accepts several media types, `request` is a union discriminated by `mediaType`.
//
// The types are generic over a contract (`ContractHandler<C, K, Context>` and friends) so that the
// fixture spec of shapes (test/fixtures/shapes) is checked by the same code; `Handler`, `HandlerMap`,
// `HandlerRequest`, `HandlerResponse` and `SuccessBody` are those types bound to the product's files.
import type { Readable } from 'node:stream';
import type { operations } from '../generated/schema.js';
import type { OperationId, operationTable } from '../generated/operations.js';

/**
 * What the handler types are derived from: openapi-typescript's `operations` and the type of the
 * operation table generated from the same spec (`typeof operationTable`).
 */
export interface HandlerContract {
  readonly operations: object;
  readonly table: object;
}

/** The product's contract: packages/contract/generated/. */
export interface ProductContract {
  readonly operations: operations;
  readonly table: typeof operationTable;
}

/** The operationIds of a contract. */
export type ContractOperationId<C extends HandlerContract> = keyof C['operations'] & keyof C['table'] & string;

// ---------------------------------------------------------------------------------------------------
// Bodies that are not JSON.

/**
 * A streamed byte answer. Node's `Readable` (an `fs.createReadStream`, a database cursor piped through
 * a transform) is named for the reader, though it is an `AsyncIterable` already; `AsyncIterable<Uint8Array>`
 * takes an `async function*` and a web `ReadableStream<Uint8Array>` (`file.stream()`, a `fetch` body),
 * which Node's types make async-iterable. Every one of them can be written with `stream.pipeline`
 * (backpressure holds, a failed stream ends the answer), so a large answer is never held whole. A web
 * `ReadableStream` is not named on its own: typed as async-iterable already, it would only widen what
 * the service must tell apart.
 */
export type ByteStream = Readable | AsyncIterable<Uint8Array>;

/**
 * A streamed text answer: chunks of text (a generator of lines) or of its UTF-8 bytes (a file piped
 * through). The table says text is UTF-8 (`charset: 'utf-8'`): the service encodes string chunks so.
 */
export type TextStream = Readable | AsyncIterable<string | Uint8Array>;

/** A byte answer: whole (a `Buffer` is a `Uint8Array`) or streamed. */
export type BytesAnswerBody = Uint8Array | ByteStream;

/**
 * An uploaded file of a multipart body: the web `File` (global in Node 20 from `node:buffer`, and the
 * browser's own), so a handler reads `name`, `type` (the part's declared media type), `size`, and the
 * bytes with `arrayBuffer()` or `bytes()` or, without holding them whole, `stream()`. Chosen over a
 * kit-made `{ name, mediaType, size, stream }` object because it is the platform's type on both
 * sides (the client appends the same `File`/`Blob` to a `FormData`), it can be backed by a file on
 * disk (`fs.openAsBlob`) rather than memory, and it can be passed on as is (`file.stream()` is a
 * ByteStream answer).
 */
export type UploadedFile = File;

/** A text schema's type (a string enum stays a union of its literals); anything else: `string`. */
type TextOf<T> = [T] extends [never] ? string : [T] extends [string] ? T : string;

/** The element type of an array schema's type. */
type ElementOf<T> = T extends readonly (infer Element)[] ? Element : T;

/** The table's fact about the multipart part `Name`, or never (an additional, undeclared part). */
type PartNamed<Parts, Name> = string extends Name ? never : Parts extends ReadonlyArray<infer Part> ? Extract<Part, { readonly name: Name }> : never;

/**
 * A multipart field or file, by the table's fact about the part. A field is the text of its part: a
 * string-typed schema keeps its type (an enum its literals); a field of any other schema (an integer, a
 * boolean) is still the string that arrived, which the handler parses. The kit converts no field:
 * multipart has no types on the wire, and the client's `FormData` takes strings and files only.
 */
type PartValue<T, Part> = [Part] extends [never]
  ? TextOf<T>
  : Part extends { readonly kind: 'file'; readonly multiple: true }
    ? UploadedFile[]
    : Part extends { readonly kind: 'file' }
      ? UploadedFile
      : Part extends { readonly kind: 'field'; readonly multiple: true }
        ? TextOf<ElementOf<T>>[]
        : TextOf<T>;

/**
 * A multipart body: the schema's properties (names and optionality from openapi-typescript, which
 * types `format: binary` as `string`), each replaced by the table's kind of part: `File`, `File[]`, or
 * the field's text.
 */
export type FormBody<T, Parts> = { [Name in keyof T]: PartValue<NonNullable<T[Name]>, PartNamed<Parts, Name>> };

/** The openapi-typescript type of one media type of a `content` map. */
type ContentType<Content, MediaType> = MediaType extends keyof Content ? Content[MediaType] : never;

/** A response's `content` map (never for a response without content). */
type ContentOf<R> = R extends { content: infer Content } ? Content : never;

/** The body of one media type of an answer, by its kind in the table. */
type AnswerBody<T, Facts> = Facts extends { readonly kind: 'json' }
  ? T
  : Facts extends { readonly kind: 'text' }
    ? TextOf<T> | TextStream
    : Facts extends { readonly kind: 'bytes' }
      ? BytesAnswerBody
      : Facts extends { readonly kind: 'multipart'; readonly parts: infer Parts }
        ? FormBody<T, Parts>
        : never;

/** The body of one media type of a request, by its kind in the table. */
type RequestBodyValue<T, Facts> = Facts extends { readonly kind: 'json' }
  ? T
  : Facts extends { readonly kind: 'text' }
    ? TextOf<T>
    : Facts extends { readonly kind: 'bytes' }
      ? Uint8Array
      : Facts extends { readonly kind: 'multipart'; readonly parts: infer Parts }
        ? FormBody<T, Parts>
        : never;

// ---------------------------------------------------------------------------------------------------
// One operation of a contract.

type OperationOf<C extends HandlerContract, K> = K extends keyof C['operations'] ? C['operations'][K] : never;
type FactsOf<C extends HandlerContract, K> = K extends keyof C['table'] ? C['table'][K] : never;
type ResponsesOf<O> = O extends { responses: infer Responses } ? Responses : never;

/** The table's media facts of one status (`[]`: no body), keyed as the spec writes the status. */
type StatusMedia<Facts, Status extends number> = Facts extends { readonly responseMedia: infer Media }
  ? `${Status}` extends keyof Media
    ? Media[`${Status}`]
    : never
  : never;

type ParametersOf<O, Where extends 'path' | 'query'> = O extends { parameters: { [P in Where]: infer Params } }
  ? Params extends undefined
    ? Record<string, never>
    : Params
  : O extends { parameters: { [P in Where]?: infer Params } }
    ? [Params] extends [never] | [undefined]
      ? Record<string, never>
      : NonNullable<Params>
    : Record<string, never>;

/**
 * Headers the HTTP layer sets on every answer that carries them (request id, rate limits, the replay
 * marker, challenges, `Retry-After`, `Allow`): a handler never writes these.
 */
type LayerHeader = 'X-Request-Id' | 'RateLimit' | 'RateLimit-Policy' | 'Idempotent-Replayed' | 'WWW-Authenticate' | 'Retry-After' | 'Allow';

/** The header names a response declares, without openapi-typescript's `[name: string]: unknown`. */
type DeclaredHeaderNames<R> = R extends { headers: infer Headers }
  ? keyof { [Name in keyof Headers as string extends Name ? never : Name extends LayerHeader ? never : Name]: true } & string
  : never;

/**
 * Headers a handler must set itself: every header the spec declares on that answer that the HTTP layer
 * does not set (`Location` on a 201, `ETag`, `Content-Disposition` on a file), each a string. An answer
 * that declares none takes no `headers`.
 */
type HandlerHeaders<R> = [DeclaredHeaderNames<R>] extends [never] ? { headers?: never } : { headers: { [Name in DeclaredHeaderNames<R>]: string } };

/**
 * One media type's answer. `Named`: the status has several media types, so `mediaType` is required,
 * the handler saying which it sends. With one media type it is optional: there is nothing to choose,
 * so a handler need not write it (every JSON handler stays as it was), and the service takes the one
 * the table lists; it is not forbidden, so a helper that always writes it (`{ mediaType, body }` for a
 * file) fits every status, and a wrong one still fails, being checked against the spec's literal.
 * Distributes over the status's media facts: one variant each.
 */
type MediaAnswer<R, Status extends number, Facts, Named extends boolean> = Facts extends { readonly mediaType: infer MediaType extends string }
  ? (Named extends true
      ? { status: Status; mediaType: MediaType; body: AnswerBody<ContentType<ContentOf<R>, MediaType>, Facts> }
      : { status: Status; mediaType?: MediaType; body: AnswerBody<ContentType<ContentOf<R>, MediaType>, Facts> }) &
      HandlerHeaders<R>
  : never;

/** The answers of one status: no body, one media type, or one variant per media type. */
type StatusAnswer<R, Status extends number, Media> = Media extends readonly []
  ? { status: Status; body?: never } & HandlerHeaders<R>
  : Media extends readonly [infer Only]
    ? MediaAnswer<R, Status, Only, false>
    : Media extends ReadonlyArray<infer Each>
      ? MediaAnswer<R, Status, Each, true>
      : never;

/** One documented answer of operation `K`: its status and the body the spec gives that status. */
export type ContractResponse<C extends HandlerContract, K extends ContractOperationId<C>> = {
  [Status in keyof ResponsesOf<OperationOf<C, K>> & number]: StatusAnswer<ResponsesOf<OperationOf<C, K>>[Status], Status, StatusMedia<FactsOf<C, K>, Status>>;
}[keyof ResponsesOf<OperationOf<C, K>> & number];

/** A request's `content` map (never without a request body). */
type RequestContentOf<O> = O extends { requestBody?: infer Body } ? (NonNullable<Body> extends { content: infer Content } ? Content : never) : never;

/** The body of one media type of a request (`Facts`: that media type's entry in the table). */
type RequestMediaBody<Content, Facts> = Facts extends { readonly mediaType: infer MediaType }
  ? RequestBodyValue<ContentType<Content, MediaType>, Facts>
  : never;

/** One media type of a request with several: `mediaType` says which arrived. */
type RequestVariant<Content, Facts> = Facts extends { readonly mediaType: infer MediaType extends string }
  ? { mediaType: MediaType; body: RequestMediaBody<Content, Facts> }
  : never;

/**
 * The body of a request, from the table's `requestMedia`: `undefined` without one; with one media type
 * just `body` (there is nothing to tell apart, so no `mediaType`, and a handler called directly, as
 * the service's tests do, is given `{ params, query, body }` as before); with several, a union
 * discriminated by `mediaType`. A body the spec does not require may be absent (`undefined`).
 */
type RequestBodyOf<Content, RequestMedia> = RequestMedia extends { readonly required: infer Required; readonly media: infer Media }
  ? Media extends readonly [infer Only]
    ? { body: RequestMediaBody<Content, Only> | (Required extends true ? never : undefined) }
    : Media extends ReadonlyArray<infer Each>
      ? RequestVariant<Content, Each> | (Required extends true ? never : { mediaType?: undefined; body: undefined })
      : never
  : { body: undefined };

/** What a handler receives, already validated against the spec. */
export type ContractRequest<C extends HandlerContract, K extends ContractOperationId<C>> = {
  params: ParametersOf<OperationOf<C, K>, 'path'>;
  query: ParametersOf<OperationOf<C, K>, 'query'>;
} & RequestBodyOf<RequestContentOf<OperationOf<C, K>>, FactsOf<C, K> extends { readonly requestMedia: infer Media } ? Media : null>;

/** A handler for one operation; `Context` is what the service adds (caller, database, logger). */
export type ContractHandler<C extends HandlerContract, K extends ContractOperationId<C>, Context> = (
  request: ContractRequest<C, K>,
  context: Context,
) => Promise<ContractResponse<C, K>>;

/** One handler per operationId: a missing or extra key is a compile error. */
export type ContractHandlerMap<C extends HandlerContract, Context> = { [K in ContractOperationId<C>]: ContractHandler<C, K, Context> };

/** The success body of an operation, handy for domain code that builds it. */
export type ContractSuccessBody<C extends HandlerContract, K extends ContractOperationId<C>> = Extract<ContractResponse<C, K>, { status: 200 | 201 }>['body'];

// ---------------------------------------------------------------------------------------------------
// The product's handlers.

/** One documented answer of a product operation: its status and the body the spec gives that status. */
export type HandlerResponse<K extends OperationId> = ContractResponse<ProductContract, K>;

/** What a product handler receives, already validated against the spec. */
export type HandlerRequest<K extends OperationId> = ContractRequest<ProductContract, K>;

/** A handler for one product operation; `Context` is what the service adds (caller, database, logger). */
export type Handler<K extends OperationId, Context> = ContractHandler<ProductContract, K, Context>;

/** One handler per product operationId: a missing or extra key is a compile error. */
export type HandlerMap<Context> = ContractHandlerMap<ProductContract, Context>;

/** The success body of a product operation, handy for domain code that builds it. */
export type SuccessBody<K extends OperationId> = ContractSuccessBody<ProductContract, K>;
