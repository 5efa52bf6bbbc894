// What a query or mutation of an operation fails with. An answer with a documented error status
// throws ApiCallError<K>: `error.result.status` and the spec's Error body in `error.result.error`,
// typed for that operation. The other members are the client's own failures: no answer (NetworkError,
// RequestTimeoutError is one), an answer outside the spec (UnexpectedResponseError), and, with
// `validateResponses: true`, a body that breaks the spec (ResponseValidationError).
import type { NetworkError } from '../network.js';
import type { ResponseValidationError } from '../response-validation.js';
import type { ApiCallError, ContractFailure, UnexpectedResponseError } from '../result.js';
import type { ClientContract, ContractOperationId, ProductContract } from '../types.js';

/** What a query or mutation of operation `K` (of contract `C`, the product's by default) fails with. */
export type OperationError<K extends ContractOperationId<C>, C extends ClientContract = ProductContract> =
  | ApiCallError<K, ContractFailure<C, K>>
  | NetworkError
  | UnexpectedResponseError
  | ResponseValidationError;
