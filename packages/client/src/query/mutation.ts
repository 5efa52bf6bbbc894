// A write's mutation options: the call, and an onSuccess that invalidates the reads the write makes
// stale (the spec's `x-invalidates`, turned into keys by the generated code). The QueryClient is the
// one TanStack hands every mutation callback (`context.client`), so the same object works with any
// adapter and any client, with nothing to pass in.
import type { MutationFunctionContext, MutationObserverOptions, QueryKey } from '@tanstack/query-core';
import type { OperationId } from '@invoice-api/contract';
import { expectOk, type ApiResult } from '../result.js';
import type { CallOptions } from '../transport.js';
import type { SuccessData } from '../types.js';
import type { OperationError } from './errors.js';
import type { OperationKey } from './keys.js';

/** A mutation's call options: TanStack does not abort mutations, so no signal. */
export type MutationCallOptions = Omit<CallOptions, 'signal'>;

export type OperationMutationOptions<K extends OperationId, V> = MutationObserverOptions<SuccessData<K>, OperationError<K>, V> & {
  mutationKey: OperationKey<string, K>;
  mutationFn: (variables: V) => Promise<SuccessData<K>>;
  onSuccess: (data: SuccessData<K>, variables: V, onMutateResult: unknown, context: MutationFunctionContext) => Promise<void>;
};

export function mutationOptions<K extends OperationId, V>(
  mutationKey: OperationKey<string, K>,
  call: (variables: V) => Promise<ApiResult<K>>,
  invalidates: (variables: V, data: SuccessData<K>) => readonly QueryKey[],
): OperationMutationOptions<K, V> {
  return {
    mutationKey,
    mutationFn: (variables) => expectOk(call(variables)),
    // Returned, not fired and forgotten: the mutation settles once the active queries it made stale
    // have refetched, so `await mutateAsync(...)` is followed by fresh lists.
    onSuccess: async (data, variables, _onMutateResult, context) => {
      await Promise.all(invalidates(variables, data).map((queryKey) => context.client.invalidateQueries({ queryKey })));
    },
  };
}
