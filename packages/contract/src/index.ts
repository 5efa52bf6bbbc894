// The public face of @invoice-api/contract: every API type and table other packages may use.
export type { paths, operations, components } from '../generated/schema.js';
export { operationTable } from '../generated/operations.js';
export { searchRules } from '../generated/search-rules.js';
export type {
  BodyBounds,
  DeprecationFacts,
  DeprecationNotice,
  MediaFacts,
  MultipartPart,
  OperationFacts,
  OperationId,
  RateLimitGroup,
} from '../generated/operations.js';
export type {
  BytesAnswerBody,
  ByteStream,
  ContractHandler,
  ContractHandlerMap,
  ContractOperationId,
  ContractRequest,
  ContractResponse,
  ContractSuccessBody,
  FormBody,
  Handler,
  HandlerContract,
  HandlerMap,
  HandlerRequest,
  HandlerResponse,
  ProductContract,
  SuccessBody,
  TextStream,
  UploadedFile,
} from './handlers.js';
export { bundledSpecPath, bundledSpecYamlPath, publishedSpecPath, publishedSpecYamlPath, validatorSpecPath, isRecord, loadSpec, resolveRef } from './spec.js';
export type { OpenApiDocument, SpecNode } from './spec.js';
export type * from './schemas.js';
export { decimalPlaces, isDate, isDateTime, numberFormats, responseFormats } from './formats.js';
export type { FormatCheck, NumberFormat } from './formats.js';
export { answerIssue, jsonPath } from './answer-check.js';
export type { CompiledCheck, CompiledCheckError, ResponseIssue, ResponseValidatorTable } from './answer-check.js';
export * from './request-checks/index.js';
