// @invoice-api/client: a typed client for the Invoice Search and Delivery Issuing API.
export { createApiClient } from './client.js';
export type { ApiClient, ApiClientOptions, CallOptions, IdempotencyKeyOption, IfMatchOption } from './client.js';
export { NetworkError } from './network.js';
export { items, pages } from './paging.js';
export type { Page, PageItem, PageRequest, PagedOperationId, PagingClient, PagingOptions } from './paging.js';
export type { FailedCall } from './network.js';
export { ApiCallError, UnexpectedResponseError, expectOk } from './result.js';
export type { ApiFailure, ApiResult, ApiSuccess } from './result.js';
export { isSafeOperation, parseRetryAfter, retryDelay, retryPolicy } from './retry.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export type { ErrorData, ErrorStatus, PathParameter, QueryParams, RequestBody, SuccessData, SuccessEtag, SuccessStatus } from './types.js';
