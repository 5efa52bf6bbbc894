// MSW request handlers generated from the spec: one per operation, answering as the service would
// refuse (request-checks.ts) and otherwise with the spec's examples or seeded data (answers.ts), or
// with what a test overrides (overrides.ts).
import { http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw';
import { operationTable, type OperationId } from '@invoice-api/contract';
import { mswOperations } from '../../generated/msw-answers.js';
import { requestValidators } from '../../generated/msw-request-validators.js';
import { documentedAnswer, preferredAnswer, successStatus, type ChosenAnswer } from './answers.js';
import type { Override, Overrides, StatusAnswer } from './overrides.js';
import { checkRequest } from './request-checks.js';

export interface HandlerOptions {
  /**
   * Where the API is: `https://api.example.com`, or a path prefix. Default `*`: any origin, so the same
   * handlers serve a test in Node and a page in the browser.
   */
  baseUrl?: string;
  /**
   * Answer with data generated from the schema with this seed instead of the spec's first example
   * (the same data on every run). `Prefer: example=<name>` still picks a named example.
   */
  seed?: number;
}

export interface CreateHandlersOptions extends HandlerOptions {
  /** Per operationId: a documented answer (status, body, headers) or a resolver `(request) => answer`. */
  overrides?: Overrides;
}

export interface OperationHandlerOptions<K extends OperationId> extends HandlerOptions {
  override?: Override<K>;
}

const byMethod = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete, HEAD: http.head, OPTIONS: http.options } as const;

function respond({ status, body, headers }: ChosenAnswer): HttpResponse<JsonBodyType> {
  return body === undefined ? new HttpResponse(null, { status, headers }) : HttpResponse.json(body as JsonBodyType, { status, headers });
}

/** A documented answer a test asked for: its body, else the status's example; its headers over the spec's. */
function overridden<K extends OperationId>(operationId: K, answer: StatusAnswer<K>, seed: number | undefined): ChosenAnswer {
  const documented = documentedAnswer(operationId, answer.status, seed === undefined ? {} : { seed });
  return { status: answer.status, body: answer.body ?? documented.body, headers: { ...documented.headers, ...answer.headers } };
}

/** The handler of one operation, e.g. for `server.use(operationHandler('searchInvoices', { override: { status: 503 } }))`. */
export function operationHandler<K extends OperationId>(operationId: K, options: OperationHandlerOptions<K> = {}): HttpHandler {
  const facts = mswOperations[operationId];
  const method = byMethod[operationTable[operationId].method];
  const url = `${(options.baseUrl ?? '*').replace(/\/+$/, '')}${facts.path}`;
  return method(url, async ({ request }) => {
    const checked = await checkRequest(operationId, request.clone(), requestValidators);
    if ('refusal' in checked) {
      const { status, body, headers } = checked.refusal;
      return respond({ status, body, headers: { ...facts.answers[String(status)]?.headers, ...headers } });
    }
    const { override, seed } = options;
    if (override !== undefined) {
      const answer = typeof override === 'function' ? await override(request) : override;
      return answer instanceof Response ? answer : respond(overridden(operationId, answer, seed));
    }
    return respond(
      preferredAnswer(operationId, request.headers.get('prefer'), seed) ??
        documentedAnswer(operationId, successStatus(operationId), seed === undefined ? {} : { seed }),
    );
  });
}

/** One handler per operation of the spec: `setupServer(...createHandlers())`, `setupWorker(...createHandlers())`. */
export function createHandlers(options: CreateHandlersOptions = {}): HttpHandler[] {
  const { overrides, ...shared } = options;
  return (Object.keys(operationTable) as OperationId[]).map((operationId) => {
    const override = overrides?.[operationId] as Override<typeof operationId> | undefined;
    return operationHandler(operationId, { ...shared, ...(override === undefined ? {} : { override }) });
  });
}

/** A handler factory per operation: `server.use(operationHandlers.getInvoice({ override: { status: 404 } }))`. */
export const operationHandlers = Object.fromEntries(
  (Object.keys(operationTable) as OperationId[]).map((operationId) => [
    operationId,
    (options?: OperationHandlerOptions<typeof operationId>) => operationHandler(operationId, options),
  ]),
) as { readonly [K in OperationId]: (options?: OperationHandlerOptions<K>) => HttpHandler };
