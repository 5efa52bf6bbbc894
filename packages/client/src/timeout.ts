// How long one attempt of a call may take, and the caller's own abort. Each attempt gets a signal of
// its own that aborts when the attempt's time is up or when the caller's signal aborts, whichever
// comes first, and the transport can then tell which of the two it was. Written with one
// AbortController and a listener rather than `AbortSignal.any`, which Node 20's early releases and
// older browsers lack, and whose combined signals Node has leaked in some releases; the listener and
// the timer are removed as soon as the attempt settles.
import type { OperationId } from '@invoice-api/contract';
import { AttemptTimeout, NetworkError } from './network.js';

/** The default time one attempt may take before it is abandoned: 30 seconds. */
export const defaultTimeoutMs = 30_000;

/** The signal of one attempt, and whether it was its timer (not the caller) that fired. */
export interface AttemptSignal {
  signal: AbortSignal;
  timedOut: () => boolean;
  /**
   * Stops the timer and forgets the caller's signal: call once the attempt has settled. With
   * `keepCallerSignal` the caller's signal still aborts the attempt (an answer returned as a stream,
   * whose body is read after the call returned); its listener goes when that signal aborts.
   */
  dispose: (options?: { keepCallerSignal?: boolean }) => void;
}

/** `timeoutMs` undefined or 0 means no timer; the caller's signal still applies. */
export function attemptSignal(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer =
    timeoutMs && timeoutMs > 0 && !controller.signal.aborted
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new AttemptTimeout(timeoutMs));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: (options) => {
      if (timer !== undefined) clearTimeout(timer);
      if (options?.keepCallerSignal !== true) callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/**
 * Thrown when no attempt of a call was answered in time. A timeout is a network failure (nothing is
 * known of what the service did), so it is a `NetworkError` and is retried like one where the call
 * may be repeated; this error is what remains when no attempt is left.
 */
export class RequestTimeoutError extends NetworkError {
  override readonly name: string = 'RequestTimeoutError';
  constructor(
    method: string,
    url: string,
    /** The time each attempt was given, in milliseconds. */
    readonly timeoutMs: number,
    call: { operationId: OperationId; requestId: string; idempotencyKey: string | undefined; attempts: number },
  ) {
    super(method, url, new AttemptTimeout(timeoutMs), call);
    this.message = `${call.operationId}: timed out after ${timeoutMs} ms (no answer from ${method} ${url}; ${call.attempts === 1 ? '1 attempt' : `${call.attempts} attempts`}); request id ${call.requestId}${
      call.idempotencyKey === undefined ? '' : `; resend with idempotencyKey '${call.idempotencyKey}' to learn the outcome`
    }`;
  }
}

/**
 * Settles with `work`, or rejects with the signal's reason once it aborts, even if `work` never
 * settles: a `getToken` or an injected fetch that ignores the signal cannot hang a call past its
 * timeout. The rejection waits one macrotask, so that a fetch that does honour the signal reports
 * the abort itself first (with the request's method and URL).
 */
export function settleByAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => setTimeout(() => reject(signal.reason), 0);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms` with the policy's sleep, but rejects with the caller's reason as soon as the caller aborts. */
export function sleepUnlessAborted(sleep: (ms: number) => Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
