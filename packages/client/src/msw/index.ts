// `@invoice-api/client/msw`: MSW 2 request handlers generated from the spec, for tests in Node
// (`setupServer` from `msw/node`) and pages in the browser (`setupWorker` from `msw/browser`). They
// refuse what the service refuses, in its words, and answer with the spec's examples or seeded data.
export { createHandlers, operationHandler, operationHandlers } from './handlers.js';
export type { CreateHandlersOptions, HandlerOptions, OperationHandlerOptions } from './handlers.js';
export type { AnswerBody, AnswerResolver, DocumentedStatus, Override, Overrides, StatusAnswer } from './overrides.js';
export { preferences } from './answers.js';
