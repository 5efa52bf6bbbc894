// Lets requests run side by side, or one exclusive task (a reset) alone: the task waits until every
// request that started before it has answered, and requests arriving meanwhile wait until it is done.
// So no request sees the database half restored, and none straddles a reset (one read before it and
// the next after).
import type { RequestHandler } from 'express';

export interface RequestGate {
  /** Middleware: holds a request while an exclusive task runs, and counts it until it has answered. */
  middleware: RequestHandler;
  /** Runs `task` with no request in flight; tasks queue behind each other. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

export function requestGate(): RequestGate {
  let running = 0;
  /** Resolves when the current exclusive task (and those queued before it) is done. */
  let closed: Promise<void> | undefined;
  let drained: (() => void) | undefined;

  const leave = (): void => {
    running -= 1;
    if (running === 0) drained?.();
  };

  const middleware: RequestHandler = (_req, res, next) => {
    // Listened for at once: a client that leaves while its request is held must not be counted later
    // (its 'close' would never come again, and the next reset would wait for it for ever).
    let counted = false;
    let gone = false;
    res.once('close', () => {
      gone = true;
      if (counted) leave();
    });
    const enter = (): void => {
      if (gone) return;
      counted = true;
      running += 1;
      next();
    };
    if (closed === undefined) {
      enter();
      return;
    }
    // Re-checked after each wait: another task may have closed the gate again in between.
    const waitThenEnter = async (): Promise<void> => {
      while (closed !== undefined) await closed;
      enter();
    };
    void waitThenEnter();
  };

  async function exclusive<T>(task: () => Promise<T>): Promise<T> {
    while (closed !== undefined) await closed;
    let open = (): void => undefined;
    closed = new Promise<void>((resolve) => {
      open = resolve;
    });
    try {
      if (running > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
        });
        drained = undefined;
      }
      return await task();
    } finally {
      closed = undefined;
      open();
    }
  }

  return { middleware, exclusive };
}
