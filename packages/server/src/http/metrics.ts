// Counts every request in the Prometheus metrics (runtime/metrics.ts): in flight while it runs, then
// once by operationId and status with its duration. Installed first, so that every answer is counted,
// whichever step gave it; the operation is read when the answer is done, by when the resolver has
// named it (or not: `unmatched`). Per request: one clock reading, one listener that is the same
// function for every request, two Map lookups, then prom-client's update of the two series. Also counts the 503s of a database outage, which
// errors.ts marks on `res.locals.unavailable`.
import type { RequestHandler, Response } from 'express';
import { unmatchedOperation, type Metrics } from '../runtime/metrics.js';
import './locals.js';

declare global {
  namespace Express {
    interface Locals {
      /** `performance.now()` when the request reached the service (metrics.ts). */
      metricsStartedAt?: number;
    }
  }
}

export function httpMetrics(metrics: Metrics): RequestHandler {
  // `close` follows `finish` on an answered request and also comes when the client leaves first.
  function onClose(this: Response): void {
    metrics.inFlight.dec();
    const seconds = (performance.now() - (this.locals.metricsStartedAt ?? 0)) / 1000;
    const series = metrics.requestSeries(this.locals.operation?.operationId ?? unmatchedOperation, this.writableFinished ? this.statusCode : 0);
    series.count.inc();
    series.duration.observe(seconds);
    if (this.locals.unavailable !== undefined) metrics.databaseUnavailable();
  }
  return (_req, res, next) => {
    res.locals.metricsStartedAt = performance.now();
    metrics.inFlight.inc();
    res.on('close', onClose);
    next();
  };
}
