// A write's mutation options: the call, and an onSuccess that invalidates the reads the write makes
// stale (the spec's `x-invalidates`, turned into keys by the generated code). The QueryClient is the
// one TanStack hands every mutation callback (`context.client`), so the same object works with any
// adapter and any client, with nothing to pass in.
import type { MutationFunctionContext, MutationObserverOptions, QueryKey } from '@tanstack/query-core';
import { expectOk, type ContractResult } from '../result.js';
import type { CallOptions } from '../transport.js';
import type { ClientContract, ContractOperationId, ContractSuccessData, ProductContract } from '../types.js';
import type { OperationError } from './errors.js';
import type { OperationKey } from './keys.js';

/** A mutation's call options: TanStack does not abort mutations, so no signal. */
export type MutationCallOptions = Omit<CallOptions, 'signal'>;

/** A write's mutation options (of operation `K` of contract `C`, the product's by default); `V` its variables. */
export type OperationMutationOptions<K extends ContractOperationId<C>, V, C extends ClientContract = ProductContract> = MutationObserverOptions<
  ContractSuccessData<C, K>,
  OperationError<K, C>,
  V
> & {
  mutationKey: OperationKey<string, K>;
  mutationFn: (variables: V) => Promise<ContractSuccessData<C, K>>;
  onSuccess: (data: ContractSuccessData<C, K>, variables: V, onMutateResult: unknown, context: MutationFunctionContext) => Promise<void>;
};

export function mutationOptions<K extends ContractOperationId<C>, V, C extends ClientContract = ProductContract>(
  mutationKey: OperationKey<string, K>,
  call: (variables: V) => Promise<ContractResult<C, K>>,
  invalidates: (variables: V, data: ContractSuccessData<C, K>) => readonly QueryKey[],
): OperationMutationOptions<K, V, C> {
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
