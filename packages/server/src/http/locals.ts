// What the HTTP layer learns about a request as it passes the middleware, kept on `res.locals` under
// typed names so that each step reads what an earlier one established without casts.
import type { OperationFacts } from '@invoice-api/contract';
import type { Caller } from '../context.js';
import type { MediaFacts } from './served-contract.js';

/**
 * One row of the served contract's generated operation table (served-contract.ts): every fact the spec
 * states about the operation, typed by the fact's kind rather than the product's literal values, so
 * that the same steps serve any spec's table.
 */
export type OperationEntry = OperationFacts;

declare global {
  // Express's documented extension point for `res.locals` (declaration merging; a namespace is required).
  namespace Express {
    interface Locals {
      /** Set first, for every request (request-id.ts). */
      requestId: string;
      /**
       * The operation the method and path name (operation-resolver.ts), the one match of the path in
       * the service's own code; absent outside the API. Every later step reads it.
       */
      operation?: OperationEntry;
      /** The verified token's caller (auth.ts); absent for operations that need no token. */
      caller?: Caller;
      /** Why the token was refused (auth.ts): `missing` or a TokenFailure; logged with the request. */
      tokenFailure?: string;
      /**
       * The media type the request body arrived as, one of the operation's `requestMedia` (request-body.ts);
       * absent when there is no body, or when it was read on the JSON path of an operation taking JSON only.
       */
      requestMedia?: MediaFacts;
      /** The operation's path parameters, ids as checked numbers (path-ids.ts). */
      pathParams?: Record<string, number | string>;
      /** The raw body holds a `\u0000` escape, so a string in it may hold NUL (nul-characters.ts). */
      bodyMayHoldNul?: boolean;
      /**
       * Why the answer is a 503 the service expected (the database is unreachable): set instead of
       * `failure`, so the request's log line is a warning without a stack (logging.ts).
       */
      unavailable?: string;
      /**
       * The request passed every check and reached its handler (router.ts): from then on an error answer
       * is the handler's, and is checked against the spec like its other answers (errors.ts).
       */
      handling?: boolean;
      /** What made the answer a 500 (errors.ts): logged with its stack on the request's line, never sent. */
      failure?: Error;
    }
  }
}
