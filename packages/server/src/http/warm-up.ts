// express-openapi-validator compiles an operation's request validators (Ajv) lazily, at
// the first request for each method, route and request Content-Type, blocking the event loop for
// hundreds of milliseconds each time. On a freshly started service that stalls the first requests,
// and a SIGTERM arriving in such a stall met connections the server had not even accepted yet. The
// validator offers no way to compile ahead, so this sends it one request per operation and
// Content-Type at start, before the service listens: through the SAME validator middleware the app
// uses (its caches live in those middleware closures), mounted in a throwaway app on a loopback port
// that exists only for this and serves nothing but the validator (no handlers, no database).
//
// Every step is lenient: a warm-up request is not meant to be valid, it only has to reach the
// request validator (which compiles before it validates). Lenient with refusals only: a validator
// that cannot check a request at all (its document failed to load, so it would answer every request
// with a 500) fails the warm-up, and with it the start. Answers are checked by validators compiled
// at generate time (answer-check.ts): nothing to warm.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../config.js';
import type { Caller } from '../context.js';
import './locals.js';
import { productContract, type MediaFacts, type ServedContract } from './served-contract.js';

export interface WarmUpRequest {
  method: string;
  path: string;
  /** Undefined: no Content-Type and no body. */
  contentType?: string;
}

/**
 * The Content-Types under which a client sends a body in `media`, as the validator tells them apart:
 * JSON and text also with the charset parameter (`; charset=utf-8`, what many clients send); multipart
 * with a boundary, which the validator leaves out of its key.
 */
function contentTypesOf(media: MediaFacts): string[] {
  switch (media.kind) {
    case 'json':
    case 'text':
      return [media.mediaType, `${media.mediaType}; charset=utf-8`];
    case 'bytes':
      return [media.mediaType];
    case 'multipart':
      return [`${media.mediaType}; boundary=warm-up`];
  }
}

/**
 * The requests that compile every validator a real client reaches: the validator caches per method,
 * route and normalised Content-Type (a HEAD is checked as its GET: head-as-get.ts). GETs and an
 * optional body: without Content-Type. A body: under each Content-Type of each media type the
 * operation takes. A required body without Content-Type is 415 before anything is compiled, so it is
 * not sent.
 */
export function warmUpRequests(operations: ServedContract['operations'] = productContract.operations): WarmUpRequest[] {
  const requests: WarmUpRequest[] = [];
  for (const operation of Object.values(operations)) {
    const path = operation.path.replace(/\{[^}]+\}/g, '1');
    const body = operation.requestMedia;
    if (body?.required !== true) requests.push({ method: operation.method, path });
    for (const media of body?.media ?? []) {
      for (const contentType of contentTypesOf(media)) requests.push({ method: operation.method, path, contentType });
    }
  }
  return requests;
}

/** Sends every warm-up request through `validators`; resolves with how many were sent and how long it took. */
export async function warmUpValidators(
  validators: readonly RequestHandler[],
  operations: ServedContract['operations'] = productContract.operations,
): Promise<{ requests: number; ms: number }> {
  const startedAt = performance.now();
  const allScopes = new Set(Object.values(operations).flatMap((operation) => [...operation.scopes]));
  const caller: Caller = { accountId: 1, apiKey: 'warm-up', scopes: allScopes };

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(express.json({ limit: BODY_LIMIT_BYTES, strict: false, type: 'application/json' }));
  app.use((_req, res, next) => {
    res.locals.caller = caller;
    next();
  });
  let failure: Error | undefined;
  const noteFailure = (error: Error): void => {
    failure ??= error;
  };
  for (const validator of validators) app.use(lenient(validator, noteFailure));
  app.use((_req, res) => {
    res.status(200).json({});
  });
  app.use(((_error, _req, res, _next) => {
    if (!res.headersSent) res.status(204).end();
  }) as express.ErrorRequestHandler);

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const requests = warmUpRequests(operations);
  try {
    for (const warmUp of requests) {
      await send(port, agent, warmUp);
      if (failure !== undefined) throw new ValidatorUnusableError(failure);
    }
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return { requests: requests.length, ms: Math.round(performance.now() - startedAt) };
}

/** The request validator could not check a request at all: the service must not start with it. */
export class ValidatorUnusableError extends Error {
  constructor(cause: Error) {
    super(`the request validator cannot check requests: ${cause.message}`, { cause });
    this.name = 'ValidatorUnusableError';
  }
}

/**
 * What a validator's report says about the validator itself: nothing when it refused the request
 * (an HTTP error of status 4xx, what an invalid warm-up request gets), the error when it failed to
 * check it (anything else: its document did not load, or it broke).
 */
export function validatorFailure(reported: unknown): Error | undefined {
  if (reported === undefined || reported === null) return undefined;
  const status = (reported as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return undefined;
  return reported instanceof Error ? reported : new Error(String(reported));
}

/**
 * Runs a middleware and continues whatever it reports: an invalid warm-up request must still reach
 * the next validator. What is not a refusal goes to `onFailure`. A second call of `next` (the
 * response validator reporting the answer it rejected) ends the answer.
 */
function lenient(middleware: RequestHandler, onFailure: (error: Error) => void): RequestHandler {
  return (req, res, next) => {
    let continued = false;
    const onward = (reported?: unknown): void => {
      const failure = validatorFailure(reported);
      if (failure !== undefined) onFailure(failure);
      if (!continued) {
        continued = true;
        next();
      } else if (!res.headersSent) {
        res.status(204).end();
      }
    };
    try {
      const result: unknown = middleware(req, res, onward);
      if (result instanceof Promise) result.catch(onward);
    } catch (error) {
      onward(error);
    }
  };
}

/**
 * A W3C trace context whose sampled flag is off: with tracing on, the SDK's default parent-based
 * sampler records nothing for the request it arrives with, so the warm-up leaves no traces in the
 * operator's backend (dozens of spans per start otherwise). With tracing off, nothing reads it.
 */
function unsampledTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

function send(port: number, agent: Agent, warmUp: WarmUpRequest): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const body = warmUp.contentType === undefined ? undefined : '{}';
    const headers: Record<string, string> = { accept: 'application/json', traceparent: unsampledTraceparent() };
    if (warmUp.contentType !== undefined) headers['content-type'] = warmUp.contentType;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const request = httpRequest({ host: '127.0.0.1', port, method: warmUp.method, path: warmUp.path, agent, headers, timeout: 60_000 }, (response) => {
      response.resume();
      response.once('end', () => resolve());
      response.once('error', reject);
    });
    request.once('timeout', () => request.destroy(new Error(`warm-up ${warmUp.method} ${warmUp.path} got no answer`)));
    request.once('error', reject);
    request.end(body);
  });
}
