// What the HTTP layer learns about a request as it passes the middleware, kept on `res.locals` under
// typed names so that each step reads what an earlier one established without casts.
import type { operationTable } from '@invoice-api/contract';
import type { Caller } from '../context.js';

/** One row of the contract's operation table: method, path, scopes, summary. */
export type OperationEntry = (typeof operationTable)[keyof typeof operationTable];

declare global {
  // Express's documented extension point for `res.locals` (declaration merging; a namespace is required).
  namespace Express {
    interface Locals {
      /** Set first, for every request (request-id.ts). */
      requestId: string;
      /** The operation the method and path name (operation-resolver.ts); absent outside the API. */
      operation?: OperationEntry;
      /** The verified token's caller (auth.ts); absent for operations that need no token. */
      caller?: Caller;
      /** Why the token was refused (auth.ts): `missing` or a TokenFailure; logged with the request. */
      tokenFailure?: string;
      /** The operation's path ids as checked numbers (path-ids.ts). */
      pathIds?: Record<string, number>;
      /**
       * Why the answer is a 503 the service expected (the database is unreachable): set instead of
       * `res.err`, so the request's log line is a warning without a stack (logging.ts).
       */
      unavailable?: string;
    }
  }
}

export {};
