// A request checked as the service checks it, in the service's order (packages/server/src/app.ts):
// token (401), scope (403, when the token is a JWT that states its scopes), body size (413) and JSON
// syntax (400), path ids (400), a body that is not an object (400), unknown query parameters, then the
// query and body against the spec (400, validators compiled at generate time), then NUL characters
// (400). Every refusal is worded by the contract's request checks, which the service uses too.
//
// What a mock cannot check, it lets through: a token's signature, expiry, issuer and audience (any
// well-formed bearer token passes), rate limits, If-Match and Idempotency-Key against stored state.
import {
  bareChallenge,
  bearerToken,
  firstNulCharacter,
  insufficientScopeChallenge,
  insufficientScopeMessage,
  invalidTokenChallenge,
  jsonErrorPosition,
  malformedJsonMessage,
  missingTokenMessage,
  notAnObjectProblem,
  nulCharacterProblem,
  operationTable,
  parsePathId,
  pathIdProblem,
  requestProblem,
  searchBodyProblem,
  searchRules,
  tokenFailures,
  type ApiError,
  type CompiledCheck,
  type ErrorCode,
  type OperationId,
  type RequestProblem,
  type ValidatorProblem,
} from '@invoice-api/contract';

/** operationId -> the compiled check of `{ query, body }` (operations that take neither have none). */
export type RequestValidatorTable = { readonly [K in OperationId]?: CompiledCheck };

/** The service's limit on a request body (express.json's `limit`). */
const bodyLimitBytes = 1024 * 1024;

/** An error answer: status, the spec's Error body and the headers the service sends with it. */
export interface Refusal {
  status: number;
  body: ApiError;
  headers: Record<string, string>;
}

/** The request as checked: its parsed JSON body (undefined when it had none). */
export interface CheckedRequest {
  body: unknown;
}

function refusal(status: number, error: ErrorCode, message: string, headers: Record<string, string> = {}, details?: ApiError['details']): Refusal {
  return { status, body: { error, message, ...(details === undefined ? {} : { details }) }, headers };
}

function invalid(problem: RequestProblem): Refusal {
  return refusal(400, 'invalid_request', problem.message, {}, problem.details);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The scopes a JWT's payload states (`scope`, space-separated); undefined when the token is not such a JWT. */
function statedScopes(token: string): Set<string> | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    if (!isRecord(json) || typeof json.scope !== 'string') return undefined;
    return new Set(json.scope.split(' ').filter((scope) => scope !== ''));
  } catch {
    return undefined;
  }
}

function tokenRefusal(operationId: OperationId, authorization: string | null): Refusal | undefined {
  const facts = operationTable[operationId];
  if (!facts.authenticated) return undefined;
  const token = bearerToken(authorization);
  if (token === undefined) return refusal(401, 'unauthorized', missingTokenMessage, { 'WWW-Authenticate': bareChallenge });
  if (token === 'malformed') return refusal(401, 'unauthorized', `${tokenFailures.malformed}.`, { 'WWW-Authenticate': invalidTokenChallenge('malformed') });
  const scopes = statedScopes(token);
  const needed: readonly string[] = facts.scopes;
  if (scopes !== undefined && !needed.every((scope) => scopes.has(scope))) {
    return refusal(403, 'forbidden', insufficientScopeMessage(facts.summary, needed), { 'WWW-Authenticate': insufficientScopeChallenge(needed) });
  }
  return undefined;
}

/** The body as the service's parser reads it: undefined when empty or not JSON by its Content-Type. */
async function parsedBody(request: Request): Promise<{ body: unknown } | { refusal: Refusal }> {
  const text = await request.text();
  if (new TextEncoder().encode(text).length > bodyLimitBytes) return { refusal: refusal(413, 'payload_too_large', 'The request body is larger than 1 MiB.') };
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (text === '' || mediaType !== 'application/json') return { body: undefined };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return { refusal: invalid({ message: malformedJsonMessage(jsonErrorPosition(error instanceof Error ? error.message : '')) }) };
  }
}

function pathRefusal(operationId: OperationId, url: URL): Refusal | undefined {
  const facts = operationTable[operationId];
  // The operation's path is the end of the URL's (a base URL may add segments in front).
  const segments = url.pathname.split('/').slice(-facts.path.split('/').length);
  for (const parameter of facts.pathParams) {
    if (parameter.id && parsePathId(segments[parameter.segment] ?? '', parameter.maximum) === undefined) {
      return invalid(pathIdProblem(parameter.name, parameter.maximum));
    }
  }
  return undefined;
}

function queryNames(url: URL): string[] {
  const names: string[] = [];
  url.searchParams.forEach((_value, name) => {
    names.push(name);
  });
  return names;
}

/** Query values as the service's validator coerces them for the schema: numbers and booleans from text. */
function coercedQuery(url: URL): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  url.searchParams.forEach((value, name) => {
    if (value === 'true' || value === 'false') query[name] = value === 'true';
    else if (value.trim() !== '' && Number.isFinite(Number(value))) query[name] = Number(value);
    else query[name] = value;
  });
  return query;
}

/** Ajv's errors in the service validator's form (express-openapi-validator's ajvErrorsToValidatorError). */
function validatorProblems(check: CompiledCheck): ValidatorProblem[] {
  return (check.errors ?? []).map((error) => {
    const params = error.params;
    const extra = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    const allowed = error.keyword === 'enum' && Array.isArray(params.allowedValues) ? `: ${params.allowedValues.join(', ')}` : '';
    return {
      path: typeof extra === 'string' ? `${error.instancePath}/${extra}` : error.instancePath,
      message: `${error.message ?? ''}${allowed}`,
      errorCode: `${error.keyword}.openapi.validation`,
    };
  });
}

/**
 * The service's refusal of `request` to `operationId`, or the request's parsed body when the service
 * would take it. Reads the request's body (pass a clone if the body is needed afterwards).
 */
export async function checkRequest(
  operationId: OperationId,
  request: Request,
  validators: RequestValidatorTable,
): Promise<{ refusal: Refusal } | CheckedRequest> {
  const facts = operationTable[operationId];
  const token = tokenRefusal(operationId, request.headers.get('authorization'));
  if (token !== undefined) return { refusal: token };
  const parsed = await parsedBody(request);
  if ('refusal' in parsed) return parsed;
  const url = new URL(request.url);
  const path = pathRefusal(operationId, url);
  if (path !== undefined) return { refusal: path };
  const { body } = parsed;
  if (facts.body?.object === true && body !== undefined && !isRecord(body)) return { refusal: invalid(notAnObjectProblem(body)) };

  const known = new Set<string>(facts.queryParams.map((parameter) => parameter.name));
  const unknown = [...new Set(queryNames(url))].find((name) => !known.has(name));
  if (unknown !== undefined)
    return { refusal: invalid(requestProblem([{ path: `/query/${unknown}`, message: `Unknown query parameter '${unknown}'` }], body, facts)) };
  const check = validators[operationId];
  const data = { query: coercedQuery(url), ...(body === undefined ? {} : { body }) };
  if (check !== undefined && !check(data)) return { refusal: invalid(requestProblem(validatorProblems(check), data.body, facts)) };

  const nul = firstNulCharacter(data.body);
  if (nul !== undefined) return { refusal: invalid(nulCharacterProblem(nul)) };
  // What the service's search handler refuses beyond the schema (a `between` whose bounds are reversed).
  const search = facts.body?.schemaName === searchRules.requestSchema ? searchBodyProblem(data.body) : undefined;
  if (search !== undefined) return { refusal: invalid(search) };
  return { body: data.body };
}
