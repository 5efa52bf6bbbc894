// `@invoice-api/client/msw`: MSW 2 request handlers generated from the spec, for tests in Node
// (`setupServer` from `msw/node`) and pages in the browser (`setupWorker` from `msw/browser`). They
// refuse what the service refuses, in its words, and answer with the spec's examples, seeded data or
// (for a byte answer) a small valid file, each body as the spec's media type carries it.
// `mswHandlers(tables)` builds the same handlers for another spec's generated tables.
import type { operations } from '@invoice-api/contract';
import type { CreateHandlersOptions as CreateHandlersOptionsOf, OperationHandlerOptions as OperationHandlerOptionsOf } from './handlers.js';
import type { OperationKey } from './overrides.js';

export { createHandlers, operationHandler, operationHandlers, productTables } from './product.js';
export { mswHandlers } from './handlers.js';
export type { HandlerOptions, MswHandlerKit } from './handlers.js';
export type {
  AnswerFacts,
  GenerationSchema,
  MediaAnswerFacts,
  MswOperationFacts,
  MswOperationTable,
  MswTables,
  RequestValidatorTable,
} from './answer-table.js';
export type { AnswerBody, AnswerMediaType, AnswerResolver, DocumentedStatus, OperationKey, Override, Overrides, StatusAnswer } from './overrides.js';
export { preferences } from './answers.js';

/** Options of `createHandlers` (the product's by default). */
export type CreateHandlersOptions<Ops extends object = operations> = CreateHandlersOptionsOf<Ops>;
/** Options of one operation's handler (the product's by default). */
export type OperationHandlerOptions<K extends OperationKey<Ops>, Ops extends object = operations> = OperationHandlerOptionsOf<K, Ops>;
