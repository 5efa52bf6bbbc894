// @invoice-api/client: a typed client for the Invoice Search and Delivery Issuing API.
export { createApiClient } from './client.js';
export type {
  AcceptOption,
  ApiClient,
  ApiClientOptions,
  CallOptions,
  ContentTypeOption,
  IdempotencyKeyOption,
  IfMatchOption,
  StreamOption,
} from './client.js';
export { deprecationNotifier } from './deprecation.js';
export type { DeprecationWarning, OnDeprecation } from './deprecation.js';
export { NetworkError } from './network.js';
export { items, pages } from './paging.js';
export type { Page, PageItem, PageRequest, PagedOperationId, PagingClient, PagingOptions } from './paging.js';
export type { FailedCall } from './network.js';
export { ApiCallError, UnexpectedResponseError, expectOk } from './result.js';
export type { ApiFailure, ApiResult, ApiSuccess, CallFailure, ContractFailure, ContractResult, ContractSuccess, OkData } from './result.js';
export { ResponseValidationError } from './response-validation.js';
export type { ResponseIssue } from './response-validation.js';
export { isSafeOperation, parseRetryAfter, retryDelay, retryPolicy } from './retry.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export { RequestTimeoutError, defaultTimeoutMs } from './timeout.js';
export { openTelemetryTraceContext } from './trace-context.js';
export type { OpenTelemetryApi, TraceContextSource } from './trace-context.js';
export type { OnUnauthorized, UnauthorizedCall } from './unauthorized.js';
export type { ErrorData, ErrorStatus, PathParameter, QueryParams, RequestBody, SuccessData, SuccessEtag, SuccessStatus } from './types.js';
// The same types over any contract (the product's are the ones above): see ./types.ts.
export type {
  BytesBody,
  ClientContract,
  ContractAcceptable,
  ContractErrorData,
  ContractErrorStatus,
  ContractOperationId,
  ContractPathParameter,
  ContractQueryParams,
  ContractRequestBody,
  ContractSuccessData,
  ContractSuccessEtag,
  ContractSuccessStatus,
  FormBody,
  ProductContract,
} from './types.js';
