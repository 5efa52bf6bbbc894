// Request and response types of each operation, derived from a contract, never typed by hand: change
// the spec, run `pnpm generate`, and these follow.
//
// A contract is two generated facts of one spec: openapi-typescript's `operations` (the TypeScript shape
// of each schema) and the operation table's type (`requestMedia` / `responseMedia`: the media types of
// each body and the KIND of each, scripts/lib/media-shapes.mjs). The kind decides the type of a body,
// read from the table's literal types, never re-derived here from media-type strings:
//   json       the schema's type (as openapi-typescript writes it)
//   text       a string (the schema's string type: an enum stays a union of its literals)
//   bytes      a `Blob` (openapi-typescript types `format: binary` as `string`: that is not what arrives)
//   multipart  answers: a `FormData`; requests: an object of the schema's properties, each file part a
//              `Blob` (a `File` is one), `Blob[]` where the part is an array of files
//   no content (`[]`, a 204) `undefined`
// and a call that asks for a stream (`{ stream: true }`) gets every body as a `ReadableStream`.
//
// Everything is generic over the contract (`ContractSuccessData<C, K, R>` and friends) so that another
// spec's generated client (the tests' fixture spec of shapes) is typed by the same code; the names
// without `Contract` (`SuccessData<K>`, `RequestBody<K>`, ...) are those types bound to the product.
import type { OperationId, operations, operationTable } from '@invoice-api/contract';

/**
 * What the client's types are derived from: openapi-typescript's `operations` and the type of the
 * operation table generated from the same spec (its `requestMedia` and `responseMedia` of each entry).
 */
export interface ClientContract {
  readonly operations: object;
  readonly table: object;
}

/** The product's contract: packages/contract/generated/. */
export interface ProductContract {
  readonly operations: operations;
  readonly table: typeof operationTable;
}

/** The operationIds of a contract. */
export type ContractOperationId<C extends ClientContract> = keyof C['operations'] & keyof C['table'] & string;

type OperationOf<C extends ClientContract, K> = K extends keyof C['operations'] ? C['operations'][K] : never;
type FactsOf<C extends ClientContract, K> = K extends keyof C['table'] ? C['table'][K] : never;
type Responses<C extends ClientContract, K> = OperationOf<C, K> extends { responses: infer R } ? R : never;

/** Documented statuses of an operation, split by outcome. */
/** The 2xx of an operation, and its 304 where the spec documents one (the caller's copy is current: no body). */
export type ContractSuccessStatus<C extends ClientContract, K extends ContractOperationId<C>> = Extract<keyof Responses<C, K>, number> &
  (200 | 201 | 202 | 203 | 204 | 205 | 206 | 304);
export type ContractErrorStatus<C extends ClientContract, K extends ContractOperationId<C>> = Exclude<
  Extract<keyof Responses<C, K>, number>,
  ContractSuccessStatus<C, K>
>;

/** The table's media facts of one status (`[]`: no body), keyed as the spec writes the status. */
type StatusMedia<Facts, Status extends number> = Facts extends { readonly responseMedia: infer Media }
  ? `${Status}` extends keyof Media
    ? Media[`${Status}`]
    : never
  : never;

/** The openapi-typescript type of one media type of a `content` map. */
type ContentType<Content, MediaType> = MediaType extends keyof Content ? Content[MediaType] : never;
type ContentOf<R> = R extends { content: infer Content } ? Content : never;
type Each<Media> = Media extends ReadonlyArray<infer Facts> ? Facts : never;

/** A text schema's type (a string enum stays a union of its literals); anything else: `string`. */
type TextOf<T> = [T] extends [never] ? string : [T] extends [string] ? T : string;

/** The body of one media type of an answer, read whole, by its kind in the table. */
type AnswerBody<Content, Facts> = Facts extends { readonly mediaType: infer MediaType; readonly kind: infer Kind }
  ? Kind extends 'json'
    ? ContentType<Content, MediaType>
    : Kind extends 'text'
      ? TextOf<ContentType<Content, MediaType>>
      : Kind extends 'bytes'
        ? Blob
        : Kind extends 'multipart'
          ? FormData
          : never
  : never;

/** The value a call's options give `option` (`undefined` where they have no such property). */
type Asked<Read, Option extends string> = Option extends keyof Read ? Read[Option] : undefined;

/**
 * The media facts a call may receive: where it asked for one media type (`accept`) that the status
 * lists, that one; else each the status lists.
 */
type Received<Media, Read> = [Asked<Read, 'accept'>] extends [string]
  ? [Extract<Each<Media>, { readonly mediaType: Asked<Read, 'accept'> }>] extends [never]
    ? Each<Media>
    : Extract<Each<Media>, { readonly mediaType: Asked<Read, 'accept'> }>
  : Each<Media>;

/** What `{ stream }` asks for: a stream, the whole body, or either (a `boolean` known only at run time). */
type Streamed<Read, Whole> =
  | (true extends Asked<Read, 'stream'> ? ReadableStream<Uint8Array> : never)
  | ([Exclude<Asked<Read, 'stream'>, true>] extends [never] ? never : Whole);

/** The body of one status: nothing for no content, else by the kind of each media type it lists. */
type StatusBody<R, Media, Read> = Media extends readonly [] ? undefined : Streamed<Read, AnswerBody<ContentOf<R>, Received<Media, Read>>>;

/** The success body of an operation (200/201/202/204), as the call `Read` asked to receive it. */
export type ContractSuccessData<C extends ClientContract, K extends ContractOperationId<C>, Read = object> = {
  [Status in ContractSuccessStatus<C, K>]: StatusBody<Responses<C, K>[Status], StatusMedia<FactsOf<C, K>, Status>, Read>;
}[ContractSuccessStatus<C, K>];

/**
 * The error body of an operation (every documented 4xx/5xx): the JSON media of each error status. The
 * client reads error answers as JSON (the service's `Error` object); a status whose only media are not
 * JSON adds nothing here, and its answer is an `UnexpectedResponseError`.
 */
export type ContractErrorData<C extends ClientContract, K extends ContractOperationId<C>> = {
  [Status in ContractErrorStatus<C, K>]: AnswerBody<
    ContentOf<Responses<C, K>[Status]>,
    Extract<Each<StatusMedia<FactsOf<C, K>, Status>>, { readonly kind: 'json' }>
  >;
}[ContractErrorStatus<C, K>];

/**
 * The `etag` of a success: `string` where the spec declares a required `ETag` on the success answer
 * (getInvoice, getDelivery and their updates), else `string | undefined`.
 */
export type ContractSuccessEtag<C extends ClientContract, K extends ContractOperationId<C>> = Responses<C, K>[ContractSuccessStatus<C, K>] extends {
  headers: { ETag: string };
}
  ? string
  : string | undefined;

/** The element type of an array schema's type. */
type ElementOf<T> = T extends readonly (infer Element)[] ? Element : T;

/** The table's fact about the multipart part `Name`, or never (an undeclared part). */
type PartNamed<Parts, Name> = Parts extends ReadonlyArray<infer Part> ? Extract<Part, { readonly name: Name }> : never;

/**
 * One property of a multipart request body, by the table's fact about its part: a file part takes a
 * `Blob` (a `File` is one: its name goes along as the part's filename), an array of them where the part
 * is `multiple`; a field takes the schema's own type, sent as its text (a number as its digits, an
 * object as JSON), the element type repeated where the field is an array.
 */
type PartValue<T, Part> = Part extends { readonly kind: 'file'; readonly multiple: true }
  ? Blob[]
  : Part extends { readonly kind: 'file' }
    ? Blob
    : Part extends { readonly kind: 'field'; readonly multiple: true }
      ? ElementOf<T>[]
      : T;

/**
 * A multipart request body: the schema's properties (names and optionality from openapi-typescript,
 * which types `format: binary` as `string`), each typed by the table's kind of part.
 */
export type FormBody<T, Parts> = { [Name in keyof T]: PartValue<NonNullable<T[Name]>, PartNamed<Parts, Name>> };

/** The bytes of a binary request body: a `Blob` (a `File`), or bytes in memory. */
export type BytesBody = Blob | ArrayBuffer | Uint8Array;

/** The value of one media type of a request body, by its kind in the table. */
type RequestValue<Content, Facts> = Facts extends { readonly mediaType: infer MediaType; readonly kind: infer Kind }
  ? Kind extends 'json'
    ? ContentType<Content, MediaType>
    : Kind extends 'text'
      ? TextOf<ContentType<Content, MediaType>>
      : Kind extends 'bytes'
        ? BytesBody
        : Facts extends { readonly kind: 'multipart'; readonly parts: infer Parts }
          ? FormBody<ContentType<Content, MediaType>, Parts>
          : never
  : never;

type RequestContentOf<O> = O extends { requestBody?: infer Body } ? (NonNullable<Body> extends { content: infer Content } ? Content : never) : never;

/** The request body of an operation (`undefined` where the body is optional; never without one). */
export type ContractRequestBody<C extends ClientContract, K extends ContractOperationId<C>> =
  FactsOf<C, K> extends {
    readonly requestMedia: { readonly required: infer Required; readonly media: infer Media };
  }
    ? RequestValue<RequestContentOf<OperationOf<C, K>>, Each<Media>> | (Required extends true ? never : undefined)
    : never;

/** The query parameters of an operation. */
export type ContractQueryParams<C extends ClientContract, K extends ContractOperationId<C>> =
  OperationOf<C, K> extends {
    parameters: { query?: infer Query };
  }
    ? NonNullable<Query>
    : never;

/** The type of one path parameter of an operation, e.g. `ContractPathParameter<C, 'getInvoice', 'invoice_id'>`. */
export type ContractPathParameter<C extends ClientContract, K extends ContractOperationId<C>, Name extends string> =
  OperationOf<C, K> extends {
    parameters: { path: infer Path };
  }
    ? Name extends keyof Path
      ? Path[Name]
      : never
    : never;

/** The media types a call may ask for with `accept`: those of the success statuses that list several. */
export type ContractAcceptable<C extends ClientContract, K extends ContractOperationId<C>> = {
  [Status in ContractSuccessStatus<C, K>]: StatusMedia<FactsOf<C, K>, Status> extends readonly [unknown, unknown, ...unknown[]]
    ? Each<StatusMedia<FactsOf<C, K>, Status>> extends { readonly mediaType: infer MediaType }
      ? MediaType
      : never
    : never;
}[ContractSuccessStatus<C, K>];

// ---------------------------------------------------------------------------------------------------
// The product's types.

/** Documented statuses of a product operation, split by outcome. */
export type SuccessStatus<K extends OperationId> = ContractSuccessStatus<ProductContract, K>;
export type ErrorStatus<K extends OperationId> = ContractErrorStatus<ProductContract, K>;

/** The success body (200/201) and the error body (every documented 4xx/5xx) of a product operation. */
export type SuccessData<K extends OperationId> = ContractSuccessData<ProductContract, K>;
export type ErrorData<K extends OperationId> = ContractErrorData<ProductContract, K>;

/** The `etag` of a product operation's success (`string` where the spec declares a required `ETag`). */
export type SuccessEtag<K extends OperationId> = ContractSuccessEtag<ProductContract, K>;

/** The request body of a product operation (`undefined` where the body is optional). */
export type RequestBody<K extends OperationId> = ContractRequestBody<ProductContract, K>;

/** The query parameters of a product operation. */
export type QueryParams<K extends OperationId> = ContractQueryParams<ProductContract, K>;

/** The type of one path parameter of a product operation, e.g. `PathParameter<'getInvoice', 'invoice_id'>`. */
export type PathParameter<K extends OperationId, Name extends string> = ContractPathParameter<ProductContract, K, Name>;
