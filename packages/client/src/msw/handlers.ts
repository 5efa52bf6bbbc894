// MSW request handlers generated from a spec: one per operation, answering as the service would
// refuse (request-checks.ts) and otherwise with the spec's examples, seeded data or sample files
// (answers.ts), or with what a test overrides (overrides.ts), a documented 304 where If-None-Match
// names the answer's ETag (conditional.ts), each body written as the operation
// table says it is carried (respond.ts). `mswHandlers(tables)` builds them for any spec's generated
// tables (a fixture's in the tests); product.ts binds them to the product's.
import { http, type HttpHandler } from 'msw';
import type { OperationFacts } from '@invoice-api/contract';
import type { MswTables } from './answer-table.js';
import { documentedAnswer, preferredAnswer, type ChosenAnswer, type OperationSource } from './answers.js';
import type { OperationKey, Override, Overrides, StatusAnswer } from './overrides.js';
import { conditionalAnswer } from './conditional.js';
import { checkRequest } from './request-checks.js';
import { respond } from './respond.js';

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

export interface CreateHandlersOptions<Ops extends object> extends HandlerOptions {
  /** Per operationId: a documented answer (status, body, headers) or a resolver `(request) => answer`. */
  overrides?: Overrides<Ops>;
}

export interface OperationHandlerOptions<K extends OperationKey<Ops>, Ops extends object> extends HandlerOptions {
  override?: Override<K, Ops>;
}

/** The handlers of one spec's operations. */
export interface MswHandlerKit<Ops extends object> {
  /** One handler per operation of the spec: `setupServer(...createHandlers())`, `setupWorker(...createHandlers())`. */
  createHandlers(options?: CreateHandlersOptions<Ops>): HttpHandler[];
  /** The handler of one operation, e.g. for `server.use(operationHandler('searchInvoices', { override: { status: 503 } }))`. */
  operationHandler<K extends OperationKey<Ops>>(operationId: K, options?: OperationHandlerOptions<K, Ops>): HttpHandler;
  /** A handler factory per operation: `server.use(operationHandlers.getInvoice({ override: { status: 404 } }))`. */
  readonly operationHandlers: { readonly [K in OperationKey<Ops>]: (options?: OperationHandlerOptions<K, Ops>) => HttpHandler };
}

const byMethod = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete, HEAD: http.head, OPTIONS: http.options } as const;

/** The JSON an error answer is written as, whatever the status documents. */
const errorMedia = { mediaType: 'application/json', kind: 'json' } as const;

/** An answer a test asked for: its body (of the media type it names, or that the Accept header prefers), else the documented one. */
function overridden(
  source: OperationSource,
  answer: { status: number; body?: unknown; mediaType?: string; headers?: Readonly<Record<string, string>> },
  request: Request,
  seed: number | undefined,
): ChosenAnswer {
  const media = source.facts.responseMedia[String(answer.status)] ?? [];
  // A string or bytes body is of the first media type that is not JSON, unless the test names one.
  const raw = typeof answer.body === 'string' || answer.body instanceof Uint8Array;
  const named = answer.mediaType ?? (raw ? media.find((candidate) => candidate.kind !== 'json')?.mediaType : undefined);
  const accept = named ?? request.headers.get('accept');
  const documented = documentedAnswer(source, answer.status, { ...(seed === undefined ? {} : { seed }), accept });
  return { ...documented, body: answer.body ?? documented.body, headers: { ...documented.headers, ...answer.headers } };
}

/** A path's segments, without the empty ones around slashes. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** Whether `concrete` is a path the template `general` also matches, with a literal where `general` has a parameter. */
function shadows(concrete: string, general: string): boolean {
  const a = segmentsOf(concrete);
  const b = segmentsOf(general);
  if (a.length !== b.length || concrete === general) return false;
  return a.every((segment, index) => {
    const other = b[index] ?? '';
    return segment === other || (other.startsWith('{') && !segment.startsWith('{'));
  });
}

/** A GET's answer as HEAD's: the same status and headers, no body. */
function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function matchesTemplate(pathname: string, template: string): boolean {
  const actual = segmentsOf(pathname);
  const expected = segmentsOf(template);
  // The operation's path is the end of the URL's (a base URL may add segments in front).
  const tail = actual.slice(-expected.length);
  return tail.length === expected.length && expected.every((segment, index) => segment.startsWith('{') || segment === tail[index]);
}

/** The handlers of the operations in `tables`, typed by openapi-typescript's `operations` of the same spec. */
export function mswHandlers<Ops extends object>(tables: MswTables<OperationKey<Ops>>): MswHandlerKit<Ops> {
  const ids = Object.keys(tables.operationTable) as Array<OperationKey<Ops>>;
  const factsOf = (operationId: OperationKey<Ops>): OperationFacts => tables.operationTable[operationId];

  /**
   * The more specific paths of the same method that this operation's path template also matches
   * (`/reports/export` for `/reports/{report_id}`): a request to one of those is left to its own
   * handler, whichever order the handlers are in (`server.use` puts one first).
   */
  function shadowingPaths(operationId: OperationKey<Ops>): string[] {
    const facts = factsOf(operationId);
    return ids
      .map(factsOf)
      .filter((other) => other.method === facts.method && shadows(other.path, facts.path))
      .map((other) => other.path);
  }

  function operationHandler<K extends OperationKey<Ops>>(operationId: K, options: OperationHandlerOptions<K, Ops> = {}): HttpHandler {
    const facts = factsOf(operationId);
    const answers = tables.mswOperations[operationId];
    const source: OperationSource = { operationId, facts, answers, schemas: tables.generationSchemas };
    const validators = tables.requestValidators[operationId];
    const shadowing = shadowingPaths(operationId);
    // A GET answers HEAD too, as the service does (head-as-get.ts), unless the spec has its own HEAD there.
    const answersHead = facts.method === 'GET' && !ids.some((other) => factsOf(other).method === 'HEAD' && factsOf(other).path === facts.path);
    const method = answersHead ? http.all : byMethod[facts.method];
    const url = `${(options.baseUrl ?? '*').replace(/\/+$/, '')}${answers.path}`;
    return method(url, async ({ request }) => {
      if (answersHead && request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const answer = await answerOf(request);
      return answer !== undefined && request.method === 'HEAD' ? withoutBody(answer) : answer;
    });

    async function answerOf(request: Request): Promise<Response | undefined> {
      const { pathname } = new URL(request.url);
      if (shadowing.some((path) => matchesTemplate(pathname, path))) return undefined;
      const checked = await checkRequest(facts, request.clone(), validators);
      if ('refusal' in checked) {
        const { status, body, headers } = checked.refusal;
        return respond({ status, media: errorMedia, body, headers: { ...answers.answers[String(status)]?.headers, ...headers } });
      }
      const { override, seed } = options;
      if (override !== undefined) {
        const answer: StatusAnswer<K, Ops> | Response = typeof override === 'function' ? await override(request) : override;
        return answer instanceof Response ? answer : respond(conditionalAnswer(source, request, overridden(source, answer, request, seed)));
      }
      // A `Prefer` header asks for one answer by name: it is given as asked, conditional or not.
      return respond(
        preferredAnswer(source, request, seed) ??
          conditionalAnswer(
            source,
            request,
            documentedAnswer(source, facts.successStatus, { ...(seed === undefined ? {} : { seed }), accept: request.headers.get('accept') }),
          ),
      );
    }
  }

  function createHandlers(options: CreateHandlersOptions<Ops> = {}): HttpHandler[] {
    const { overrides, ...shared } = options;
    return ids.map((operationId) => {
      const override = overrides?.[operationId];
      return operationHandler(operationId, { ...shared, ...(override === undefined ? {} : { override }) });
    });
  }

  const operationHandlers = Object.fromEntries(
    ids.map((operationId) => [operationId, (options?: OperationHandlerOptions<typeof operationId, Ops>) => operationHandler(operationId, options)]),
  ) as MswHandlerKit<Ops>['operationHandlers'];

  return { createHandlers, operationHandler, operationHandlers };
}
