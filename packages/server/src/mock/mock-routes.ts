// The stateful mock's own route, `POST /__mock/reset`, and the gate every other request passes. It
// exists only in this mode: the spec, the published spec and the generated types never name it, and
// the service proper has no such path (404). No token: the mock listens on loopback, and a test's
// setup should be able to reset it with a bare `fetch`.
import { Router, type RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { RequestGate } from './request-gate.js';

export const resetPath = '/__mock/reset';

export interface ResetOutcome {
  /** Rows written to bring the database back to the fixture. */
  rowsRestored: number;
  tookMs: number;
}

export function mockRoutes(gate: RequestGate, reset: () => Promise<ResetOutcome>): RequestHandler {
  const router = Router({ caseSensitive: true, strict: true });
  router.post(resetPath, (_req, res, next) => {
    reset().then(
      (outcome) => res.status(200).json({ reset: true, rows_restored: outcome.rowsRestored, took_ms: outcome.tookMs }),
      (error: unknown) => next(error),
    );
  });
  router.all(resetPath, (req, res, next) => {
    res.setHeader('Allow', 'POST');
    next(new ApiError(405, 'method_not_allowed', `The method ${req.method} is not allowed on this path; allowed: POST.`));
  });
  router.use(gate.middleware);
  return router;
}
