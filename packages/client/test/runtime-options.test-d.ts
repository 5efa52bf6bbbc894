// Type-level tests of the runtime options: timeouts, the caller's signal, the 401 hook and
// validateResponses. `pnpm typecheck` compiles this file; each `@ts-expect-error` must be a real error.
import { expectTypeOf } from 'vitest';
import type { OperationId } from '@invoice-api/contract';
import {
  type NetworkError,
  RequestTimeoutError,
  type ResponseValidationError,
  createApiClient,
  type OnUnauthorized,
  type ResponseIssue,
  type UnauthorizedCall,
} from '../src/index.js';

export async function timeouts() {
  const api = createApiClient({ baseUrl: 'http://x', timeout: 5000 });
  createApiClient({ baseUrl: 'http://x', timeout: false });
  // @ts-expect-error the timeout is milliseconds, not a string
  createApiClient({ baseUrl: 'http://x', timeout: '5s' });
  const controller = new AbortController();
  await api.listUsers({ timeout: 1000, signal: controller.signal });
  await api.createInvoice({ client_id: 1, amount: 1, currency: 'CHF', due_date: '2026-12-31' }, { timeout: false, idempotencyKey: 'k' });
  // @ts-expect-error the signal is an AbortSignal, not its controller
  await api.listUsers({ signal: controller });

  const failure: unknown = undefined;
  if (failure instanceof RequestTimeoutError) {
    expectTypeOf(failure.timeoutMs).toEqualTypeOf<number>();
    expectTypeOf(failure).toMatchTypeOf<NetworkError>();
    expectTypeOf(failure.call?.operationId).toEqualTypeOf<OperationId | undefined>();
  }
}

export function refresh() {
  createApiClient({ baseUrl: 'http://x', token: 't', onUnauthorized: () => 'fresh' });
  createApiClient({ baseUrl: 'http://x', getToken: () => 't', onUnauthorized: async () => undefined });
  createApiClient({ baseUrl: 'http://x', onUnauthorized: async ({ operationId, response }: UnauthorizedCall) => `${operationId}-${response.status}` });
  // @ts-expect-error the hook returns a token (a string), not a header
  createApiClient({ baseUrl: 'http://x', onUnauthorized: () => ({ Authorization: 'Bearer x' }) });
  expectTypeOf<ReturnType<OnUnauthorized>>().toEqualTypeOf<string | undefined | null | Promise<string | undefined | null>>();
}

export function validation() {
  createApiClient({ baseUrl: 'http://x', validateResponses: true });
  createApiClient({
    baseUrl: 'http://x',
    validateResponses: (error) => {
      expectTypeOf(error).toEqualTypeOf<ResponseValidationError>();
      expectTypeOf(error.issue).toEqualTypeOf<ResponseIssue>();
      expectTypeOf(error.operationId).toEqualTypeOf<OperationId>();
      expectTypeOf(error.status).toEqualTypeOf<number>();
    },
  });
  // @ts-expect-error true, false or a function
  createApiClient({ baseUrl: 'http://x', validateResponses: 'strict' });
}
