// The two answers outside the API: the published spec as JSON (open responses, standard JSON Schema
// only: what consumers' tools load) and the HTML reference built from it. No token, no rate limit;
// both are read once per process, since the spec does not change while the service runs.
import { readFileSync } from 'node:fs';
import { Router, type RequestHandler } from 'express';
import { publishedSpecPath } from '@invoice-api/contract';
import { renderDocsHtml } from '@invoice-api/contract/docs';
import { ApiError } from '../errors.js';
import { docsPath } from './security-headers.js';

export const specPath = '/openapi.json';

/** The routes below, consulted only for their two exact paths: every API request passes them by. */
export function outsideApiRoutes(): RequestHandler {
  const router = outsideApiRouter();
  return (req, res, next) => {
    if (req.path === specPath || req.path === docsPath) router(req, res, next);
    else next();
  };
}

function outsideApiRouter(): Router {
  const router = Router({ caseSensitive: true, strict: true });
  let specJson: Buffer | undefined;
  let docsHtml: string | undefined;

  router.get(specPath, (_req, res) => {
    specJson ??= readFileSync(publishedSpecPath);
    res.type('application/json').send(specJson);
  });
  router.get(docsPath, (_req, res) => {
    docsHtml ??= renderDocsHtml();
    res.type('text/html').send(docsHtml);
  });
  router.all([specPath, docsPath], (req, res, next) => {
    res.setHeader('Allow', 'GET, HEAD');
    next(new ApiError(405, 'method_not_allowed', `The method ${req.method} is not allowed on this path; allowed: GET, HEAD.`));
  });
  return router;
}
