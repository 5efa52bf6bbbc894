// The hand-written half of the client: how one call travels. It sends the request through
// openapi-fetch, adds the `X-Request-Id` and the headers of the operation's own options
// (`Idempotency-Key`, `If-Match`), retries what may be repeated, and shapes the answer into an
// ApiResult. The operation functions that use it are generated (../generated/operations.ts), and
// tell it which of those headers their operation declares. Each attempt has a time limit
// (./timeout.ts); a 401 may be answered with a fresh token and replayed once (./unauthorized.ts);
// the final answer may be checked against the spec (./response-validation.ts).
//
// How each body is read and written is not decided here but carried by the generated function, from
// the operation table's media facts (its `plan`): an operation whose success answers are not all JSON
// has a `read` plan (./answer-body.ts: a Blob, a string, nothing, a stream), one whose request body is
// not JSON a `write` plan (./request-body.ts: a FormData, text, bytes). Operations with neither, every
// JSON operation, travel exactly as before: openapi-fetch writes and reads their JSON.
import type { Middleware } from 'openapi-fetch';
import { operationTable, type ApiError, type OperationId } from '@invoice-api/contract';
import { readAnswer, type ReadBody, type ReadPlan } from './answer-body.js';
import type { DeprecationNotifier } from './deprecation.js';
import { NetworkError } from './network.js';
import { encodeBody, type EncodedBody, type WriteMedia } from './request-body.js';
import { UnexpectedResponseError, type ContractResult } from './result.js';
import { ResponseValidationError, type ResponseCheck } from './response-validation.js';
import { isSafe, retryableStatuses, retryDelay, type RetryPolicy } from './retry.js';
import { RequestTimeoutError, attemptSignal, settleByAbort, sleepUnlessAborted } from './timeout.js';
import type { ClientContract, ContractOperationId } from './types.js';
import type { TraceContextSource } from './trace-context.js';
import type { TokenRefresher } from './unauthorized.js';

export interface TokenSource {
  /** A fixed access token, sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Asked for the token before every request (a refreshing token source); not with `token`. */
  getToken?: (() => string | Promise<string>) | undefined;
}

/** Per-call options, the last argument of every operation function. */
export interface CallOptions {
  /** Send this `X-Request-Id` instead of a fresh one. */
  requestId?: string;
  /** Extra headers, e.g. `Prefer: code=404` against the Prism mock. */
  headers?: Record<string, string>;
  /**
   * Aborts the call (every attempt and the waits between them); the call then rejects with the
   * signal's reason, as fetch does, never retried and never taken for a timeout.
   */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take instead of the client's `timeout`; `false` or 0: no limit. */
  timeout?: number | false;
}

/** The call option of operations that declare an `Idempotency-Key` (create and issue). */
export interface IdempotencyKeyOption {
  /**
   * Send this `Idempotency-Key` instead of a fresh one, e.g. to resend a write whose outcome is
   * unknown with the key of the first try (`NetworkError.call.idempotencyKey`, `result.idempotencyKey`).
   * Every retry of the call sends the same key.
   */
  idempotencyKey?: string;
}

/** The call option of operations that declare an `If-Match` (the updates). */
export interface IfMatchOption {
  /**
   * Apply the update only to this version: the `etag` of an earlier answer (or `*`). A stale tag is
   * answered `412 precondition_failed` and nothing is written.
   */
  ifMatch?: string;
}

/** The call option of operations with a success answer that is not JSON (a file, a text): the body unread. */
export interface StreamOption {
  /**
   * Receive the success body as a `ReadableStream` instead of reading it whole, for large answers. The
   * timeout then ends with the answer's headers: the rest is read at the caller's pace (cancel the
   * stream, or abort the call's `signal`, to stop it).
   */
  stream?: boolean;
}

/** The call option of operations whose success answer comes in several media types (JSON or CSV). */
export interface AcceptOption<MediaType extends string> {
  /**
   * Ask for this one (sent as `Accept`): `data` is then typed as that media type's body, and an answer
   * in another is an `UnexpectedResponseError`. Without it, the service chooses, and `data` is the
   * union, read by the answer's Content-Type.
   */
  accept?: MediaType;
}

/** The call option of operations that take several request media types: which one the body is sent as. */
export interface ContentTypeOption<MediaType extends string> {
  /** The request body's media type; the spec's first one where not given. */
  contentType?: MediaType;
}

/** The header names, from the operation's header parameters in the spec, that the options go into. */
export interface HeaderPlan {
  readonly idempotencyKey?: string;
  readonly ifMatch?: string;
}

/**
 * What a generated function tells the transport of its operation, from the operation table: the
 * headers of its own options, and how its bodies travel where they are not JSON.
 */
export interface CallPlan extends HeaderPlan {
  /** How each success status's body is read; absent where every success answer is one JSON body. */
  readonly read?: ReadPlan;
  /** The request body's media types (the first is the default); absent where the body is JSON or there is none. */
  readonly write?: ReadonlyArray<WriteMedia>;
}

/** Makes what a call sends fresh unless the caller gives it. */
export interface CallIdSources {
  requestId: () => string;
  idempotencyKey: () => string;
  /** The caller's trace context headers (trace-context.ts); absent: none sent. */
  traceContext?: TraceContextSource | undefined;
}

/** Every option a call may carry; each function's own type says which of them its operation takes. */
export type AnyCallOptions = CallOptions & IdempotencyKeyOption & IfMatchOption & StreamOption & AcceptOption<string> & ContentTypeOption<string>;

/** What openapi-fetch answers; the call's result is typed from the contract, not from this. */
export interface RawAnswer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * What the transport adds to each attempt's request options (a type literal, not an interface: openapi-
 * fetch takes the options with an index signature, which only a type literal satisfies implicitly).
 */
export type SendInit = {
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** `'stream'` where the call has a read plan: openapi-fetch then leaves the success body to the transport. */
  parseAs?: 'stream';
  /** Where the call has a write plan: the body is encoded already, and openapi-fetch passes it on unchanged. */
  bodySerializer?: (body: unknown) => unknown;
};

/**
 * An encoded request body (a FormData, a Blob, a string) as the send hands it to openapi-fetch, whose
 * body type is the schema's: openapi-typescript types a file (`format: binary`) as `string`
 * (openapi-typescript#1214), which no Blob is. Typed `never`, it goes where that type is expected; the
 * caller's body was typed from the contract (`ContractRequestBody`) before it was encoded.
 */
export type WireBody = never;

/** Sends one attempt of an operation's request with what the transport adds (and the encoded body, where there is a write plan). */
export type Send = (init: SendInit, body: WireBody) => Promise<RawAnswer>;

/**
 * Runs one call of operation `K` of contract `C`: every attempt, then the result typed from the
 * contract; `Read` is the call's options where they ask how to read the answer (`stream`, `accept`).
 * `body` is the caller's body where the plan has a `write`.
 */
export type Invoke = <C extends ClientContract, K extends ContractOperationId<C>, Read = object>(
  operationId: K,
  callOptions: AnyCallOptions | undefined,
  send: Send,
  plan?: CallPlan,
  body?: unknown,
) => Promise<ContractResult<C, K, Read>>;

/** What the transport reads of an operation's table entry: whether it may be repeated, and its request line. */
export interface CallFacts {
  readonly method: string;
  readonly path: string;
  readonly scopes: readonly string[];
}

/** The table of a contract's operations, as far as the transport reads it (the product's `operationTable` is one). */
export type CallFactsTable = { readonly [operationId: string]: CallFacts };

/** The one 409 that asks to be retried: the first request with this key is still running. */
const keyInUse: ApiError['error'] = 'idempotency_key_in_use';

/**
 * Sets `Authorization: Bearer ...` on every request that does not carry one already (a replay after a
 * 401 carries its fresh token; a caller may set its own in `headers`). `refreshed` is the token the
 * `onUnauthorized` hook brought last, which replaces a fixed `token`; `getToken` stays the source
 * where it is given (make it return the refreshed token too).
 */
export function authMiddleware(options: TokenSource, refreshed: () => string | undefined = () => undefined): Middleware {
  const { token, getToken } = options;
  return {
    // Asked on every attempt, so a token refreshed while the client waits for a retry is used.
    async onRequest({ request }) {
      if (request.headers.has('Authorization')) return request;
      const value = getToken ? await getToken() : (refreshed() ?? token);
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  };
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether an answer is worth another attempt of a call that may be repeated: 429 and 503 (decided
 * before the body: a 503 page from a load balancer counts too), and, for a keyed call, the 409 that
 * says the first request with the key is still running (its retry gets the stored answer).
 */
function asksForRetry(status: number, error: unknown, keyed: boolean): boolean {
  if (retryableStatuses.has(status)) return true;
  return keyed && status === 409 && isJsonObject(error) && (error as { error?: unknown }).error === keyInUse;
}

/** What a call does besides sending: time limits, the 401 refresh, the check of answers. */
export interface CallRuntime {
  /** Milliseconds each attempt may take; undefined or 0: no limit. */
  timeoutMs: number | undefined;
  /** Present when the client has an `onUnauthorized` hook. */
  refresher: TokenRefresher | undefined;
  /** Present when the client validates answers; `report` undefined means throw. */
  validation: { check: ResponseCheck; report: ((error: ResponseValidationError) => void) | undefined } | undefined;
  /** Told of every answer, to warn once per deprecated operation (deprecation.ts). */
  deprecation?: DeprecationNotifier;
}

const noRuntime: CallRuntime = { timeoutMs: undefined, refresher: undefined, validation: undefined };

/**
 * The errors, hooks and checks name an operation by its product `OperationId` (their public types); a
 * client of another contract (the tests' fixture spec) passes its own ids through the same fields.
 */
const named = (operationId: string) => operationId as OperationId;

/** A success answer's body: read by the plan, or as openapi-fetch read it (JSON) where there is none. */
type Answer = RawAnswer & { read?: ReadBody };

export function createInvoke(policy: RetryPolicy, sources: CallIdSources, runtime: CallRuntime = noRuntime, table: CallFactsTable = operationTable): Invoke {
  return async function call<C extends ClientContract, K extends ContractOperationId<C>, Read = object>(
    id: K,
    callOptions: AnyCallOptions | undefined,
    send: Send,
    plan: CallPlan = {},
    body?: unknown,
  ): Promise<ContractResult<C, K, Read>> {
    const operationId = named(id);
    const facts = table[id];
    if (facts === undefined) throw new TypeError(`${id}: not an operation of this client's contract`);
    const requestId = callOptions?.requestId ?? sources.requestId();
    // One key per logical call, made before the first attempt and sent unchanged on every retry: the
    // service then runs the write at most once, however many attempts reach it.
    const idempotencyKey = plan.idempotencyKey === undefined ? undefined : (callOptions?.idempotencyKey ?? sources.idempotencyKey());
    const headers: Record<string, string> = { ...sources.traceContext?.(), ...callOptions?.headers, 'X-Request-Id': requestId };
    if (plan.idempotencyKey !== undefined && idempotencyKey !== undefined) headers[plan.idempotencyKey] = idempotencyKey;
    if (plan.ifMatch !== undefined && callOptions?.ifMatch !== undefined) headers[plan.ifMatch] = callOptions.ifMatch;
    const init: SendInit = { headers };
    // A body that is not JSON is encoded once, here, and the same encoding goes with every attempt.
    let encoded: EncodedBody | undefined;
    if (plan.write !== undefined && body !== undefined) {
      const asked = callOptions?.contentType;
      const media = (asked === undefined ? undefined : plan.write.find((each) => each.mediaType === asked)) ?? plan.write[0];
      if (media === undefined || (asked !== undefined && media.mediaType !== asked)) throw new TypeError(`${id}: the request body is not sent as ${asked}`);
      encoded = encodeBody(id, media, body);
      init.bodySerializer = passThrough;
      if (encoded.contentType !== undefined && !hasHeader(headers, 'Content-Type')) headers['Content-Type'] = encoded.contentType;
    }
    if (plan.read !== undefined) init.parseAs = 'stream';
    const wish = { stream: callOptions?.stream === true, accept: callOptions?.accept };
    if (wish.accept !== undefined && !hasHeader(headers, 'Accept')) headers.Accept = wish.accept;
    // Repeating is safe for what changes nothing, and for a write that carries its idempotency key.
    const repeatable = isSafe(facts) || idempotencyKey !== undefined;
    const maxAttempts = repeatable ? policy.maxAttempts : 1;
    const callerSignal = callOptions?.signal;
    const timeoutMs = callOptions?.timeout === undefined ? runtime.timeoutMs : callOptions.timeout || undefined;
    let replayed401 = false;
    // The success body is read within the attempt, so its time limit covers it (a stream: up to its headers).
    const attemptOnce = async (signal: AbortSignal): Promise<Answer> => {
      const answer: Answer = await send({ ...init, signal }, encoded?.wire as WireBody);
      // The plan's statuses are the documented successes: the 2xx, and a 304 where the spec has one.
      if (plan.read === undefined || plan.read[String(answer.response.status)] === undefined) return answer;
      return { ...answer, read: await readAnswer(operationId, requestId, answer.response, plan.read, wish) };
    };
    // `attempts` counts HTTP requests; `tries` those the retry policy spends (a 401 replay is not one).
    for (let attempts = 1, tries = 1; ; attempts += 1, tries += 1) {
      let answer: Answer;
      const attempt = attemptSignal(callerSignal, timeoutMs);
      const generation = runtime.refresher?.currentGeneration ?? 0;
      try {
        answer = await settleByAbort(attemptOnce(attempt.signal), attempt.signal);
      } catch (error) {
        attempt.dispose();
        // openapi-fetch parses a success body as JSON; anything else is not an answer the spec allows.
        if (error instanceof SyntaxError) throw new UnexpectedResponseError(operationId, 0, requestId, 'body is not JSON');
        // The caller's abort is theirs: passed through as is, never retried. A timeout is a network
        // failure (nothing is known of what the service did) and is retried like one.
        if (!attempt.timedOut() && !(error instanceof NetworkError)) throw error;
        const delay = tries < maxAttempts ? retryDelay(policy, tries, null) : undefined;
        if (delay === undefined) {
          const failed = { operationId, requestId, idempotencyKey, attempts };
          const { method, url } = error instanceof NetworkError ? error : { method: facts.method, url: facts.path };
          if (attempt.timedOut()) throw new RequestTimeoutError(method, url, timeoutMs ?? 0, failed);
          throw new NetworkError(method, url, error instanceof NetworkError ? error.cause : error, failed);
        }
        await sleepUnlessAborted(policy.sleep, delay, callerSignal);
        continue;
      }
      // A stream is read after the call returns: the caller's signal stays tied to it, the timer does not.
      attempt.dispose({ keepCallerSignal: wish.stream && answer.read !== undefined });
      const { response } = answer;
      runtime.deprecation?.(operationId, response);
      if (response.status === 401 && repeatable && !replayed401 && runtime.refresher) {
        replayed401 = true;
        const fresh = await runtime.refresher.freshToken({ operationId, requestId, response }, generation);
        if (fresh !== undefined) {
          headers.Authorization = `Bearer ${fresh}`;
          tries -= 1;
          continue;
        }
      }
      const retry = tries < maxAttempts && asksForRetry(response.status, answer.error, idempotencyKey !== undefined);
      const delay = retry ? retryDelay(policy, tries, response.headers.get('Retry-After')) : undefined;
      if (delay !== undefined) {
        await sleepUnlessAborted(policy.sleep, delay, callerSignal);
        continue;
      }
      const base = {
        operationId,
        status: response.status,
        response,
        requestId,
        attempts,
        idempotencyKey,
        replayed: response.headers.get('Idempotent-Replayed') === 'true',
        etag: response.headers.get('ETag') ?? undefined,
      };
      let shaped: Shaped;
      // A read plan decides a success (a 204 included); without one, openapi-fetch's JSON is the body.
      if (answer.read !== undefined) shaped = { ...base, ok: true, data: answer.read.data };
      else if (response.ok && answer.data !== undefined) shaped = { ...base, ok: true, data: answer.data };
      else if (answer.error === undefined) throw new UnexpectedResponseError(operationId, response.status, requestId, 'empty body');
      else if (!isJsonObject(answer.error)) throw new UnexpectedResponseError(operationId, response.status, requestId, 'error body is not a JSON object');
      else shaped = { ...base, ok: false, error: answer.error };
      // A Blob, a text or a stream is not JSON for the validators to check; its media type was checked on reading.
      if (runtime.validation && (answer.read === undefined || answer.read.json)) await checkAnswer(runtime.validation, operationId, shaped);
      // The answer was read as the operation's plan says, from the same table its contract types come from:
      // this is where the two meet (the spec also declares ETag required on the answers that carry one).
      return shaped as ContractResult<C, K, Read>;
    }
  };
}

/** A result before its type: what the transport knows at run time. */
type Shaped = {
  status: number;
  requestId: string;
} & ({ ok: true; data: unknown } | { ok: false; error: unknown });

const passThrough = (body: unknown) => body;

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === lower);
}

/** Validates a final answer: throws a ResponseValidationError, or hands it to the caller's report. */
async function checkAnswer(validation: NonNullable<CallRuntime['validation']>, operationId: OperationId, result: Shaped): Promise<void> {
  const body: unknown = result.ok ? result.data : result.error;
  const issue = await validation.check(operationId, result.status, body);
  if (issue === undefined) return;
  const error = new ResponseValidationError(operationId, result.status, result.requestId, issue, body);
  if (!validation.report) throw error;
  validation.report(error);
}
