// A request checked as the service checks it, in the service's order (packages/server/src/app.ts):
// token (401), scope (403, when the token is a JWT that states its scopes), the body as the operation
// table says it is carried (request-body.ts: 415 for a media type it does not take, 413, 400 for JSON
// or multipart that does not parse), path ids (400), a JSON body that is not an object (400), unknown
// query parameters, then the query (read by each parameter's style: query.ts) and the body against
// the spec (400, validators compiled at generate time), then NUL characters (400), then If-Match and
// If-None-Match that are not lists of entity tags (400, conditional.ts). Every refusal is
// worded by the contract's request checks, which the service uses too.
//
// What a mock cannot check, it lets through: a token's signature, expiry, issuer and audience (any
// well-formed bearer token passes), rate limits, and If-Match and Idempotency-Key against stored state.
import {
  bareChallenge,
  bearerToken,
  firstNulCharacter,
  insufficientScopeChallenge,
  insufficientScopeMessage,
  invalidTokenChallenge,
  missingTokenMessage,
  notAnObjectProblem,
  nulCharacterProblem,
  parsePathId,
  pathIdProblem,
  requestProblem,
  searchBodyProblem,
  searchRules,
  tokenFailures,
  type CompiledCheck,
  type OperationFacts,
  type ValidatorProblem,
} from '@invoice-api/contract';
import { preconditionRefusal } from './conditional.js';
import { readQuery } from './query.js';
import { invalid, refusal, type Refusal } from './refusals.js';
import { readBody } from './request-body.js';

export type { RequestValidatorTable } from './answer-table.js';
export type { Refusal } from './refusals.js';

/** The request as checked: its body as read (undefined when it had none). */
export interface CheckedRequest {
  body: unknown;
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

function tokenRefusal(facts: OperationFacts, authorization: string | null): Refusal | undefined {
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

function pathRefusal(facts: OperationFacts, url: URL): Refusal | undefined {
  // The operation's path is the end of the URL's (a base URL may add segments in front).
  const segments = url.pathname.split('/').slice(-facts.path.split('/').length);
  for (const parameter of facts.pathParams) {
    if (!parameter.id) continue;
    // The table states every id's maximum; PostgreSQL's largest integer stands in should one not.
    const maximum = parameter.maximum ?? 2_147_483_647;
    if (parsePathId(segments[parameter.segment] ?? '', maximum) === undefined) return invalid(pathIdProblem(parameter.name, maximum));
  }
  return undefined;
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
 * The service's refusal of `request` to the operation, or the request's body as read when the service
 * would take it. `validators`: the operation's compiled checks by request media type ('' without a
 * body). Reads the request's body (pass a clone if the body is needed afterwards).
 */
export async function checkRequest(
  facts: OperationFacts,
  request: Request,
  validators: Readonly<Record<string, CompiledCheck>> | undefined,
): Promise<{ refusal: Refusal } | CheckedRequest> {
  const token = tokenRefusal(facts, request.headers.get('authorization'));
  if (token !== undefined) return { refusal: token };
  const read = await readBody(request, facts.requestMedia);
  if ('refusal' in read) return read;
  const url = new URL(request.url);
  const path = pathRefusal(facts, url);
  if (path !== undefined) return { refusal: path };
  const { body } = read;
  if (facts.body?.object === true && read.mediaType === 'application/json' && body !== undefined && !isRecord(body)) {
    return { refusal: invalid(notAnObjectProblem(body)) };
  }

  const query = readQuery(url, facts.queryParams);
  if (query.unknown !== undefined) {
    const unknown = query.unknown;
    return { refusal: invalid(requestProblem([{ path: `/query/${unknown}`, message: `Unknown query parameter '${unknown}'` }], body, facts)) };
  }
  // The check of the body's media type, which checks the query too; without one (no body, or bytes,
  // which have no schema check), the query's alone ('').
  const bodyCheck = read.mediaType === undefined ? undefined : validators?.[read.mediaType];
  const check = bodyCheck ?? validators?.[''];
  const data = { query: query.values, ...(bodyCheck === undefined || body === undefined ? {} : { body }) };
  if (check !== undefined && !check(data)) return { refusal: invalid(requestProblem(validatorProblems(check), body, facts)) };
  // The validator fills in defaults (useDefaults), as the service's does.
  const checked = 'body' in data ? data.body : body;

  const nul = checked instanceof Uint8Array ? undefined : firstNulCharacter(checked);
  if (nul !== undefined) return { refusal: invalid(nulCharacterProblem(nul)) };
  const precondition = preconditionRefusal(facts, request.headers);
  if (precondition !== undefined) return { refusal: precondition };
  // What the service's search handler refuses beyond the schema (a `between` whose bounds are reversed).
  const search = facts.body?.schemaName === searchRules.requestSchema ? searchBodyProblem(checked) : undefined;
  if (search !== undefined) return { refusal: invalid(search) };
  return { body: checked };
}
