// Names the operation a request's method and path address, from the served contract's operation table,
// before anything else looks at the request: an unknown path is 404 and a known path with another method
// is 405 (with Allow) whatever the token or body, and the later steps (token, rate limit, scope) know
// which operation they guard. Concrete paths win over templated ones, as OpenAPI prescribes
// (`GET /2.0/delivery/issue` is 405, not a delivery with the id 'issue'), as in the validator.
// `HEAD` of a path with a `GET` is that GET (RFC 9110 9.3.2: the same answer without its content), unless
// the spec documents a HEAD of its own; node leaves the body out of a HEAD answer.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { OperationEntry } from './locals.js';

interface CompiledPath {
  pattern: RegExp;
  /** Templated segments: fewer means more concrete. */
  templates: number;
  operations: Map<string, OperationEntry>;
  /** The Allow header of a 405 here: the documented methods, and HEAD wherever GET is. */
  allow: readonly string[];
}

export type Resolution = { kind: 'operation'; operation: OperationEntry } | { kind: 'method-not-allowed'; allow: readonly string[] } | { kind: 'unknown-path' };

export function compilePaths(entries: readonly OperationEntry[]): CompiledPath[] {
  const byPath = new Map<string, CompiledPath>();
  for (const entry of entries) {
    let compiled = byPath.get(entry.path);
    if (compiled === undefined) {
      const segments = entry.path.split('/').map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment)));
      compiled = { pattern: new RegExp(`^${segments.join('/')}$`), templates: (entry.path.match(/\{/g) ?? []).length, operations: new Map(), allow: [] };
      byPath.set(entry.path, compiled);
    }
    compiled.operations.set(entry.method, entry);
  }
  for (const compiled of byPath.values()) {
    const methods = new Set(compiled.operations.keys());
    if (methods.has('GET')) methods.add('HEAD');
    compiled.allow = [...methods].sort();
  }
  return [...byPath.values()].sort((a, b) => a.templates - b.templates);
}

/** The most concrete path matching wins, even when it lacks the method (then 405 names its methods). */
export function resolve(paths: readonly CompiledPath[], method: string, path: string): Resolution {
  const matched = paths.find((compiled) => compiled.pattern.test(path));
  if (matched === undefined) return { kind: 'unknown-path' };
  const operation = matched.operations.get(method) ?? (method === 'HEAD' ? matched.operations.get('GET') : undefined);
  if (operation !== undefined) return { kind: 'operation', operation };
  return { kind: 'method-not-allowed', allow: matched.allow };
}

export function operationResolver(operations: Readonly<Record<string, OperationEntry>>): RequestHandler {
  const paths = compilePaths(Object.values(operations));
  return (req, res, next) => {
    const resolution = resolve(paths, req.method, req.path);
    switch (resolution.kind) {
      case 'operation':
        res.locals.operation = resolution.operation;
        next();
        return;
      case 'method-not-allowed':
        res.setHeader('Allow', resolution.allow.join(', '));
        next(new ApiError(405, 'method_not_allowed', `The method ${req.method} is not allowed on this path; allowed: ${resolution.allow.join(', ')}.`));
        return;
      case 'unknown-path':
        next(new ApiError(404, 'not_found', 'The requested path does not exist in this API.'));
        return;
    }
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
