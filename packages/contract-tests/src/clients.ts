// A client per target and caller: the real token for stateful targets, any bearer for the mock
// (Prism only checks that one is there), and the sl-violations check wherever Prism sits in between.
import { createApiClient, type ApiClient } from '@invoice-api/client';
import { mintDevToken } from '@invoice-api/server/dev-token';
import type { Target } from './targets.js';
import { violationCheckingFetch } from './violations.js';

export interface Caller {
  scopes?: string[];
  accountId?: number;
  ttlSeconds?: number;
  /** No Authorization header at all. */
  anonymous?: boolean;
}

export async function tokenFor(target: Target, caller: Caller = {}): Promise<string | undefined> {
  if (caller.anonymous) return undefined;
  if (!target.keyFile) return 'mock-access-token';
  return mintDevToken({
    keyFile: target.keyFile,
    clientId: `contract-tests-${target.name}`,
    ...(caller.scopes ? { scopes: caller.scopes } : {}),
    ...(caller.accountId ? { accountId: caller.accountId } : {}),
    ...(caller.ttlSeconds !== undefined ? { ttlSeconds: caller.ttlSeconds } : {}),
  });
}

export function targetFetch(target: Target): (request: Request) => Promise<Response> {
  const plain = (request: Request) => fetch(request);
  return target.validatedByPrism ? violationCheckingFetch(plain) : plain;
}

export async function clientFor(target: Target, caller: Caller = {}): Promise<ApiClient> {
  const token = await tokenFor(target, caller);
  // No retries: a 429 or 503 here is a finding, not something to wait out. Every answer is also
  // checked by the client's own generated validators (the strict spec): a scenario whose answer
  // breaks the spec throws ResponseValidationError naming the operation, status and path.
  return createApiClient({ baseUrl: target.baseUrl, fetch: targetFetch(target), retry: false, validateResponses: true, ...(token ? { token } : {}) });
}

/**
 * For what a typed client cannot say by design (a body that is not JSON, a wrong Content-Type, a
 * path id that is not a number): a plain request through the same violation check.
 */
export async function rawRequest(target: Target, method: string, path: string, init: { token?: string; body?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const response = await targetFetch(target)(
    new Request(new URL(path, target.baseUrl), { method, headers, ...(init.body !== undefined ? { body: init.body } : {}) }),
  );
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}
