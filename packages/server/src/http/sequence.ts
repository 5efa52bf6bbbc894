// Runs middleware one after another as one express middleware, the way express itself would: each step
// calls `next()` to go on or `next(error)` to leave for the error handlers; a thrown error or a rejected
// promise counts as `next(error)`. The API's checks are a fixed list that applies to every request, so
// express's router (a path match, prefix trimming and parameter processing per layer, for layers that
// all match every path) has nothing to decide between them: one function walking the list costs less.
import type { RequestHandler } from 'express';

export function sequence(steps: readonly RequestHandler[]): RequestHandler {
  return (req, res, leave) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        leave(error);
        return;
      }
      const step = steps[index];
      index += 1;
      if (step === undefined) {
        leave();
        return;
      }
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.catch((rejection: unknown) => next(rejection ?? new Error('a middleware rejected with a nullish value')));
      } catch (thrown) {
        next(thrown ?? new Error('a middleware threw a nullish value'));
      }
    };
    next();
  };
}
