// The spec's OpenAPI `links`, read from the bundled spec at run time and followed: after each call,
// the links of the operation's answer are evaluated on that exchange (its request and its answer),
// and what they yield (parameters and request bodies of a next call) is what the stateful commands
// draw their ids, ETags and cursors from. Runtime expressions (OpenAPI 3.1, 4.8.20.4): `$request.path.x`,
// `$request.body#/pointer`, `$response.body#/pointer`, `$response.header.X`; inside a link's
// `requestBody`, each string that is exactly an expression is replaced by its value, and a member
// whose value is absent is left out.
import { isRecord, loadSpec, resolveRef, type OperationId } from '@invoice-api/contract';

/** One call and its answer, as far as links read them. */
export interface Exchange {
  operationId: OperationId;
  pathParams: Readonly<Record<string, string | number>>;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  responseHeaders: Headers;
}

export interface LinkDefinition {
  name: string;
  operationId: OperationId;
  parameters: Readonly<Record<string, string>>;
  requestBody: unknown;
}

/** A link evaluated on one exchange: the target operation and the values it gets. */
export interface FollowedLink {
  name: string;
  operationId: OperationId;
  /** Parameter values by name as the link writes them (`invoice_id`, `header.If-Match`). */
  parameters: Readonly<Record<string, unknown>>;
  /** The request body the link builds, undefined when it builds none. */
  requestBody: Record<string, unknown> | undefined;
  /** Where each value came from: parameter or body member -> runtime expression (for the replay script). */
  sources: Readonly<Record<string, string>>;
}

const expressionPattern = /^\$(request|response)\.(body#(\/.*)?|header\.[A-Za-z0-9-]+|path\.\w+|query\.\w+)$/;

export function isRuntimeExpression(value: unknown): value is string {
  return typeof value === 'string' && expressionPattern.test(value);
}

/** RFC 6901: `~1` is `/`, `~0` is `~`. */
function pointerGet(document: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? document : undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

export function evaluate(expression: string, exchange: Exchange): unknown {
  const [, side, rest = ''] = expressionPattern.exec(expression) ?? [];
  if (side === undefined) throw new Error(`not a runtime expression: ${expression}`);
  if (rest.startsWith('body#') || rest === 'body') {
    const pointer = rest.slice('body#'.length);
    return pointerGet(side === 'request' ? exchange.requestBody : exchange.responseBody, pointer);
  }
  if (rest.startsWith('header.')) return side === 'response' ? (exchange.responseHeaders.get(rest.slice('header.'.length)) ?? undefined) : undefined;
  if (rest.startsWith('path.')) return exchange.pathParams[rest.slice('path.'.length)];
  return undefined;
}

/** The links of each operation's answers, by operationId and status, read once from the bundled spec. */
function readLinks(): Map<string, LinkDefinition[]> {
  const spec = loadSpec();
  const byAnswer = new Map<string, LinkDefinition[]>();
  for (const pathItem of Object.values(spec.paths)) {
    for (const operation of Object.values(pathItem)) {
      if (!isRecord(operation) || typeof operation['operationId'] !== 'string' || !isRecord(operation['responses'])) continue;
      for (const [status, response] of Object.entries(operation['responses'])) {
        const links = resolveRef(spec, response)?.['links'];
        if (!isRecord(links)) continue;
        const definitions = Object.entries(links).map(([name, reference]): LinkDefinition => {
          const link = resolveRef(spec, reference);
          if (link === undefined || typeof link['operationId'] !== 'string') throw new Error(`link ${name} names no operationId`);
          const parameters = isRecord(link['parameters']) ? (link['parameters'] as Record<string, string>) : {};
          return { name, operationId: link['operationId'] as OperationId, parameters, requestBody: link['requestBody'] };
        });
        byAnswer.set(`${operation['operationId']} ${status}`, definitions);
      }
    }
  }
  return byAnswer;
}

let cachedLinks: Map<string, LinkDefinition[]> | undefined;

export function linksOf(operationId: OperationId, status: number): readonly LinkDefinition[] {
  cachedLinks ??= readLinks();
  return cachedLinks.get(`${operationId} ${status}`) ?? [];
}

/** Every link of the spec (for the figures: which of them a run followed). */
export function allLinkNames(): string[] {
  cachedLinks ??= readLinks();
  return [...new Set([...cachedLinks.values()].flat().map((link) => link.name))].sort();
}

function buildBody(template: unknown, exchange: Exchange, path: string, sources: Record<string, string>): unknown {
  if (isRuntimeExpression(template)) {
    const value = evaluate(template, exchange);
    if (value !== undefined) sources[`body${path}`] = template;
    return value;
  }
  if (Array.isArray(template)) return template.map((entry, index) => buildBody(entry, exchange, `${path}/${index}`, sources));
  if (isRecord(template)) {
    const built: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(template)) {
      const value = buildBody(entry, exchange, `${path}/${key}`, sources);
      if (value !== undefined) built[key] = value;
    }
    return built;
  }
  return template;
}

/**
 * The links of an exchange's answer that can be followed: every parameter resolves (a search page
 * with no rows has no first invoice) and every expression the link's body names at its top level
 * resolves where it comes from the answer (a last page has no next cursor).
 */
export function followLinks(exchange: Exchange): FollowedLink[] {
  const followed: FollowedLink[] = [];
  for (const link of linksOf(exchange.operationId, exchange.status)) {
    const sources: Record<string, string> = {};
    const parameters: Record<string, unknown> = {};
    let complete = true;
    for (const [name, expression] of Object.entries(link.parameters)) {
      const value = evaluate(expression, exchange);
      if (value === undefined) complete = false;
      parameters[name] = value;
      sources[name] = expression;
    }
    let requestBody: Record<string, unknown> | undefined;
    if (link.requestBody !== undefined) {
      const built = buildBody(link.requestBody, exchange, '', sources);
      if (!isRecord(built)) throw new Error(`link ${link.name} builds a request body that is not an object`);
      const answerMembers = isRecord(link.requestBody)
        ? Object.entries(link.requestBody).filter(([, template]) => isRuntimeExpression(template) && template.startsWith('$response.'))
        : [];
      if (answerMembers.some(([key]) => built[key] === undefined)) complete = false;
      requestBody = built;
    }
    if (complete) followed.push({ name: link.name, operationId: link.operationId, parameters, requestBody, sources });
  }
  return followed;
}
