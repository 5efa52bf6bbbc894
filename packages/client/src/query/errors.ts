// What a query or mutation of an operation fails with. An answer with a documented error status
// throws ApiCallError<K>: `error.result.status` and the spec's Error body in `error.result.error`,
// typed for that operation. The other members are the client's own failures: no answer (NetworkError,
// RequestTimeoutError is one), an answer outside the spec (UnexpectedResponseError), and, with
// `validateResponses: true`, a body that breaks the spec (ResponseValidationError).
import type { OperationId } from '@invoice-api/contract';
import type { NetworkError } from '../network.js';
import type { ResponseValidationError } from '../response-validation.js';
import type { ApiCallError, UnexpectedResponseError } from '../result.js';

export type OperationError<K extends OperationId> = ApiCallError<K> | NetworkError | UnexpectedResponseError | ResponseValidationError;
