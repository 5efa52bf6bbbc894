// The 401 refresh: when an answer says the token is no longer accepted, the client's
// `onUnauthorized` hook may return a fresh token, and the transport replays the call with it once.
// Calls that meet a 401 together share one refresh: a refresh already running is awaited, and a call
// sent before a refresh finished takes that refresh's token instead of asking the hook again, so a
// page whose token expired under twenty calls refreshes once, not twenty times.
import type { OperationId } from '@invoice-api/contract';

/** What the hook learns of the refused call. */
export interface UnauthorizedCall {
  operationId: OperationId;
  /** The `X-Request-Id` of the call. */
  requestId: string;
  /** The 401 answer (its `WWW-Authenticate` says why: expired, signature, ...). */
  response: Response;
}

/**
 * Returns a fresh access token (or a promise of one) to replay the call with, or undefined (or null)
 * to give up: the call then returns the 401 as is. Called at most once per call, and only for calls
 * that may be repeated (safe operations, keyed writes).
 */
export type OnUnauthorized = (call: UnauthorizedCall) => string | undefined | null | Promise<string | undefined | null>;

export class TokenRefresher {
  /** Bumped when a refresh brings a token: an attempt sent under an older generation may reuse it. */
  private generation = 0;
  private latest: string | undefined;
  private running: Promise<string | undefined> | undefined;

  constructor(private readonly hook: OnUnauthorized) {}

  /** The generation an attempt is sent under, to hand back to `freshToken` if it meets a 401. */
  get currentGeneration(): number {
    return this.generation;
  }

  /** The token the last refresh brought, sent by later calls of a client made with a fixed `token`. */
  get latestToken(): string | undefined {
    return this.latest;
  }

  /** A token to replay with: the running refresh's, one that came after the attempt was sent, or a new refresh's. */
  freshToken(call: UnauthorizedCall, sentUnder: number): Promise<string | undefined> {
    if (this.running) return this.running;
    if (this.generation > sentUnder && this.latest !== undefined) return Promise.resolve(this.latest);
    const refresh = (async () => {
      try {
        const token = (await this.hook(call)) ?? undefined;
        if (token) {
          this.latest = token;
          this.generation += 1;
        }
        return token || undefined;
      } finally {
        this.running = undefined;
      }
    })();
    this.running = refresh;
    return refresh;
  }
}
