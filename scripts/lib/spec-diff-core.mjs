// The breaking-change rules of `pnpm spec:diff`, on two bundled OpenAPI 3.x documents (plain
// objects). Pure: no files, no git, so each rule has a fast test. Schemas are compared in the
// direction data flows: a request schema breaks callers when it accepts less, a response schema
// when it can send something callers were not promised, or stops sending what they were.
// Beyond the wire, a change breaks what is generated from the spec: the client's functions are
// named after operationIds and take (path parameters, query, body, options) in that order, and the
// server's handler map is keyed by operationId. So a renamed operationId, and a first query
// parameter or a request body where there was none (an argument slots in before the options), break
// too, even though a hand-written HTTP caller would not notice.
// A removal is not a break when the removed item was deprecated and its sunset day (`x-sunset`,
// scripts/lib/deprecation.mjs) has come: callers were told, by the docs, the headers and the client's
// warning, that it would go. Before its sunset it is still a break, and the message says when it may go.
// How bodies and query parameters are carried (which media types each status answers, which a request
// body accepts, the media types of a multipart file part, a query parameter's `style` and `explode`)
// is compared on the facts media-shapes.mjs derives, the ones the operation table holds as
// `requestMedia`, `responseMedia` and `queryParams`, not read off the spec a second way.
import { dayToEpochSeconds, sunsetKeyword } from './deprecation.mjs';
import { queryStyle, requestMedia, responseMedia } from './media-shapes.mjs';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/**
 * @typedef {{ path: string, rule: string, message: string }} Break
 * @typedef {'request' | 'response'} Direction
 */

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const quote = (key) => (/^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);
const join = (path, ...keys) => keys.reduce((at, key) => at + quote(String(key)), path);

function resolver(document) {
  return function resolve(value) {
    let current = value;
    const refs = [];
    for (let depth = 0; isObject(current) && typeof current.$ref === 'string' && depth < 50; depth += 1) {
      refs.push(current.$ref);
      if (!current.$ref.startsWith('#/')) throw new Error(`spec:diff: only internal $refs are supported (bundle first): ${current.$ref}`);
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
    }
    return { value: current, ref: refs[refs.length - 1] };
  };
}

/** `type` as a set; undefined means any type. `integer` is a subset of `number`. */
function typeSet(schema) {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}
const covers = (wide, narrow) => [...narrow].every((type) => wide.has(type) || (type === 'integer' && wide.has('number')));

function enumValues(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  return undefined;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Keywords whose larger value accepts more, and whose smaller value accepts more.
const upperBounds = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const lowerBounds = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];

class SchemaComparer {
  constructor(base, head, report) {
    this.resolveBase = resolver(base);
    this.resolveHead = resolver(head);
    this.report = report;
    this.inside = new Set();
  }

  /** @param {Direction} direction */
  compare(baseSchema, headSchema, path, direction) {
    const { value: base, ref: baseRef } = this.resolveBase(baseSchema);
    const { value: head, ref: headRef } = this.resolveHead(headSchema);
    if (!isObject(base) || !isObject(head)) return;
    // A recursive schema stops where it re-enters a pair of definitions it is already inside;
    // other routes to the same definition are compared again, so each break gets every path.
    const key = `${direction}|${baseRef ?? ''}|${headRef ?? ''}`;
    const tracked = Boolean(baseRef || headRef);
    if (tracked && this.inside.has(key)) return;
    if (tracked) this.inside.add(key);
    try {
      this.compareResolved(base, head, path, direction);
    } finally {
      if (tracked) this.inside.delete(key);
    }
  }

  compareResolved(base, head, path, direction) {
    this.compareTypes(base, head, path, direction);
    this.compareEnums(base, head, path, direction);
    if (direction === 'request') this.compareConstraints(base, head, path);
    this.compareProperties(base, head, path, direction);
    if (base.items !== undefined && head.items !== undefined) this.compare(base.items, head.items, join(path, 'items'), direction);
    for (const keyword of ['oneOf', 'anyOf', 'allOf', 'prefixItems']) {
      const baseList = base[keyword];
      const headList = head[keyword];
      if (!Array.isArray(baseList) || !Array.isArray(headList)) continue;
      baseList.forEach((entry, index) => {
        if (index < headList.length) this.compare(entry, headList[index], join(path, keyword, index), direction);
      });
      // Fewer alternatives, or more schemas that must all hold, accept fewer requests.
      const fewerAlternatives = (keyword === 'oneOf' || keyword === 'anyOf') && headList.length < baseList.length;
      const moreConditions = keyword === 'allOf' && headList.length > baseList.length;
      if (direction === 'request' && (fewerAlternatives || moreConditions)) {
        this.report(join(path, keyword), 'schema-narrowed', `${keyword} went from ${baseList.length} to ${headList.length} entries`);
      }
    }
  }

  compareTypes(base, head, path, direction) {
    const baseTypes = typeSet(base);
    const headTypes = typeSet(head);
    if (same(baseTypes && [...baseTypes].sort(), headTypes && [...headTypes].sort())) return;
    const describe = (types) => (types ? [...types].join(' | ') : 'any');
    // Requests: the new type must accept every value the old one did. Responses: every value it
    // can send must be one the old type promised.
    const breaking =
      direction === 'request'
        ? headTypes !== undefined && (baseTypes === undefined || !covers(headTypes, baseTypes))
        : baseTypes !== undefined && (headTypes === undefined || !covers(baseTypes, headTypes));
    if (breaking) this.report(join(path, 'type'), 'type-changed', `type changed from ${describe(baseTypes)} to ${describe(headTypes)}`);
  }

  compareEnums(base, head, path, direction) {
    const baseValues = enumValues(base);
    const headValues = enumValues(head);
    if (direction === 'request' && headValues !== undefined) {
      const removed = baseValues === undefined ? undefined : baseValues.filter((value) => !headValues.some((other) => same(value, other)));
      if (baseValues === undefined) this.report(join(path, 'enum'), 'enum-narrowed', `now limited to ${JSON.stringify(headValues)}`);
      else if (removed.length > 0)
        this.report(join(path, 'enum'), 'enum-narrowed', `no longer accepts ${removed.map((value) => JSON.stringify(value)).join(', ')}`);
    }
    // `x-extensible-enum: true` declares that the list grows and that clients handle an unknown value
    // (an error code by its HTTP status): a value added to such an enum is not a break. The marker is
    // the reviewed decision; an enum without it stays closed.
    if (direction === 'response' && baseValues !== undefined && head['x-extensible-enum'] !== true) {
      const added = headValues === undefined ? undefined : headValues.filter((value) => !baseValues.some((other) => same(value, other)));
      if (headValues === undefined) this.report(join(path, 'enum'), 'enum-widened-in-response', `was limited to ${JSON.stringify(baseValues)}, now any value`);
      else if (added.length > 0)
        this.report(
          join(path, 'enum'),
          'enum-widened-in-response',
          `may now answer ${added.map((value) => JSON.stringify(value)).join(', ')}, which clients were not promised`,
        );
    }
  }

  compareConstraints(base, head, path) {
    for (const keyword of upperBounds) {
      if (typeof head[keyword] === 'number' && (typeof base[keyword] !== 'number' || head[keyword] < base[keyword])) {
        this.report(join(path, keyword), 'constraint-tightened', `${keyword} ${base[keyword] ?? 'unset'} -> ${head[keyword]}`);
      }
    }
    for (const keyword of lowerBounds) {
      if (typeof head[keyword] === 'number' && (typeof base[keyword] !== 'number' || head[keyword] > base[keyword])) {
        this.report(join(path, keyword), 'constraint-tightened', `${keyword} ${base[keyword] ?? 'unset'} -> ${head[keyword]}`);
      }
    }
    for (const keyword of ['pattern', 'format']) {
      if (head[keyword] !== undefined && head[keyword] !== base[keyword]) {
        this.report(join(path, keyword), 'constraint-tightened', `${keyword} ${JSON.stringify(base[keyword] ?? null)} -> ${JSON.stringify(head[keyword])}`);
      }
    }
    if (head.additionalProperties === false && base.additionalProperties !== false && typeSet(head)?.has('object')) {
      this.report(join(path, 'additionalProperties'), 'constraint-tightened', 'unknown properties are now rejected');
    }
  }

  compareProperties(base, head, path, direction) {
    const baseProperties = isObject(base.properties) ? base.properties : {};
    const headProperties = isObject(head.properties) ? head.properties : {};
    const baseRequired = new Set(Array.isArray(base.required) ? base.required : []);
    const headRequired = new Set(Array.isArray(head.required) ? head.required : []);
    for (const [name, schema] of Object.entries(baseProperties)) {
      const at = join(path, 'properties', name);
      if (!(name in headProperties)) {
        this.report(at, 'field-removed', `field \`${name}\` was removed`, this.resolveBase(schema).value);
        continue;
      }
      this.compare(schema, headProperties[name], at, direction);
      if (direction === 'request' && !baseRequired.has(name) && headRequired.has(name))
        this.report(at, 'field-now-required', `field \`${name}\` became required`);
      if (direction === 'response' && baseRequired.has(name) && !headRequired.has(name))
        this.report(at, 'field-now-optional-in-response', `field \`${name}\` may now be missing from the answer`);
    }
    if (direction === 'request') {
      for (const name of headRequired) {
        if (!(name in baseProperties) && !baseRequired.has(name))
          this.report(join(path, 'properties', name), 'new-required-field', `new required field \`${name}\``);
      }
    }
    if (isObject(base.additionalProperties) && isObject(head.additionalProperties)) {
      this.compare(base.additionalProperties, head.additionalProperties, join(path, 'additionalProperties'), direction);
    }
  }
}

function parametersOf(resolve, pathItem, operation) {
  const byKey = new Map();
  for (const list of [pathItem.parameters, operation.parameters]) {
    for (const entry of Array.isArray(list) ? list : []) {
      const { value } = resolve(entry);
      if (isObject(value)) byKey.set(`${value.in}:${value.name}`, value);
    }
  }
  return byKey;
}

/**
 * How the operation's bodies and query parameters are carried, as the operation table has it
 * (media-shapes.mjs): `request` (null: no body), `responses` by status (an empty list: no body), and
 * each query parameter's serialization by name. `side` names the spec in an error: a spec the kit
 * cannot carry (a media type range, a url-encoded form) fails the comparison, as it fails generate.
 */
function carriageOf(document, method, path, operation, parameters, side) {
  const where = `${method.toUpperCase()} ${path} (${operation.operationId ?? 'no operationId'})`;
  try {
    const query = new Map();
    for (const parameter of parameters.values()) if (parameter.in === 'query') query.set(parameter.name, queryStyle(document, parameter, where));
    return { request: requestMedia(document, operation, where), responses: responseMedia(document, operation, where), query };
  } catch (error) {
    throw new Error(`the ${side} spec: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** How a query parameter is written in the URL, e.g. `?tags=a&tags=b`, for the message of a changed style (an object is always a deepObject: queryStyle). */
function written(name, { style, explode, shape }) {
  if (style === 'deepObject') return `?${name}[key]=value`;
  if (shape === 'scalar') return `?${name}=a`;
  if (style === 'spaceDelimited') return `?${name}=a%20b`;
  if (style === 'pipeDelimited') return `?${name}=a|b`;
  return explode ? `?${name}=a&${name}=b` : `?${name}=a,b`;
}

/**
 * Breaks in how the operation is carried: a query parameter written differently (`style`, `explode`),
 * a request media type or a multipart file part's media type no longer accepted, an answer's media
 * type no longer sent, a status that lost its body, or another media type first (what a client that
 * sends no `Accept` gets: the service answers the first listed). A media type added after the first
 * is not a break (a client gets it only by asking), nor is one added to a request body.
 */
function compareCarriage(report, at, was, now) {
  for (const [name, before] of was.query) {
    const after = now.query.get(name);
    // A plain value (always style form) is written `?limit=5` whatever `explode` says; a value that
    // became an array or object is the schema's break (type-changed).
    if (after === undefined || before.shape === 'scalar' || (before.style === after.style && before.explode === after.explode)) continue;
    report(
      join(at, 'parameters', `query:${name}`, before.style === after.style ? 'explode' : 'style'),
      'parameter-style-changed',
      `query parameter \`${name}\` is now style ${after.style}, explode ${after.explode} (was style ${before.style}, explode ${before.explode}): clients write it as ${written(name, before)}, the service now reads ${written(name, after)}`,
    );
  }

  if (was.request !== null && now.request !== null) {
    const where = join(at, 'requestBody', 'content');
    for (const media of was.request.media) {
      const next = now.request.media.find((candidate) => candidate.mediaType === media.mediaType);
      if (next === undefined) {
        report(join(where, media.mediaType), 'media-type-removed', `request content type ${media.mediaType} is no longer accepted`);
        continue;
      }
      if (media.kind !== 'multipart' || next.kind !== 'multipart') continue;
      for (const part of media.parts) {
        const nextPart = next.parts.find((candidate) => candidate.name === part.name);
        if (part.kind !== 'file' || nextPart?.kind !== 'file' || nextPart.contentTypes.length === 0) continue;
        const refused = part.contentTypes.length === 0 ? ['any media type'] : part.contentTypes.filter((type) => !nextPart.contentTypes.includes(type));
        if (refused.length === 0) continue;
        report(
          join(where, media.mediaType, 'encoding', part.name),
          'part-media-type-removed',
          `the file part \`${part.name}\` of request content type ${media.mediaType} no longer accepts ${refused.join(', ')} (now ${nextPart.contentTypes.join(', ')})`,
        );
      }
    }
  }

  for (const [status, before] of Object.entries(was.responses)) {
    const after = now.responses[status];
    if (after === undefined || before.length === 0) continue;
    const where = join(at, 'responses', status, 'content');
    const types = (list) => list.map((media) => media.mediaType);
    if (after.length === 0) {
      report(where, 'response-body-removed', `response ${status} no longer has a body (it answered ${types(before).join(', ')})`);
      continue;
    }
    for (const type of types(before))
      if (!types(after).includes(type)) report(join(where, type), 'media-type-removed', `response ${status} no longer answers ${type}`);
    const [first, nextFirst] = [before[0].mediaType, after[0].mediaType];
    if (first !== nextFirst && types(after).includes(first)) {
      report(
        where,
        'default-media-type-changed',
        `response ${status} now lists ${nextFirst} first (was ${first}): a client that sends no Accept header, or */*, now gets ${nextFirst}; list a new media type after ${first}`,
      );
    }
  }
}

function scopesOf(document, operation) {
  const requirements = operation.security ?? document.security ?? [];
  return new Set(requirements.flatMap((requirement) => Object.entries(requirement).flatMap(([scheme, scopes]) => scopes.map((scope) => `${scheme}:${scope}`))));
}

function compareOperation(context, at, basePathItem, headPathItem, baseOperation, headOperation, method, path) {
  const { base, head, schemas, report } = context;
  const resolveBase = resolver(base);
  const resolveHead = resolver(head);

  const baseParameters = parametersOf(resolveBase, basePathItem, baseOperation);
  const headParameters = parametersOf(resolveHead, headPathItem, headOperation);
  compareCarriage(
    report,
    at,
    carriageOf(base, method, path, baseOperation, baseParameters, 'old'),
    carriageOf(head, method, path, headOperation, headParameters, 'new'),
  );
  for (const [key, parameter] of baseParameters) {
    const where = join(at, 'parameters', key);
    const next = headParameters.get(key);
    if (!next) {
      report(where, 'parameter-removed', `${parameter.in} parameter \`${parameter.name}\` was removed`, parameter);
      continue;
    }
    if (!parameter.required && next.required) report(where, 'parameter-now-required', `${parameter.in} parameter \`${parameter.name}\` became required`);
    schemas.compare(parameter.schema, next.schema, join(where, 'schema'), 'request');
  }
  for (const [key, parameter] of headParameters) {
    if (!baseParameters.has(key) && parameter.required)
      report(join(at, 'parameters', key), 'new-required-parameter', `new required ${parameter.in} parameter \`${parameter.name}\``);
  }

  const queryCount = (parameters) => [...parameters.values()].filter((parameter) => parameter.in === 'query').length;
  const newQuery = [...headParameters.values()].filter((parameter) => parameter.in === 'query');
  if (queryCount(baseParameters) === 0 && newQuery.length > 0 && newQuery.every((parameter) => !parameter.required)) {
    report(
      join(at, 'parameters'),
      'client-signature-changed',
      `the operation now takes query parameters: the generated client function gains a \`query\` argument before its options`,
    );
  }

  const baseBody = resolveBase(baseOperation.requestBody).value;
  const headBody = resolveHead(headOperation.requestBody).value;
  if (isObject(baseBody) && !isObject(headBody)) {
    report(
      join(at, 'requestBody'),
      'request-body-removed',
      "the operation no longer takes a request body: callers sending one, and the generated client function's `body` argument, break",
    );
  }
  if (!isObject(baseBody) && isObject(headBody) && !headBody.required) {
    report(
      join(at, 'requestBody'),
      'client-signature-changed',
      'the operation now takes a request body: the generated client function gains a `body` argument before its options',
    );
  }
  if (isObject(headBody)) {
    const where = join(at, 'requestBody');
    if (headBody.required && !(isObject(baseBody) && baseBody.required)) report(where, 'request-body-now-required', 'the request body became required');
    // A media type no longer accepted is compareCarriage's; the schemas of those both accept are compared here.
    if (isObject(baseBody)) {
      for (const [media, content] of Object.entries(baseBody.content ?? {})) {
        const next = headBody.content?.[media];
        if (next) schemas.compare(content.schema, next.schema, join(where, 'content', media, 'schema'), 'request');
      }
    }
  }

  for (const [status, baseResponseRef] of Object.entries(baseOperation.responses ?? {})) {
    const where = join(at, 'responses', status);
    const headResponseRef = headOperation.responses?.[status];
    if (headResponseRef === undefined) {
      report(where, 'response-removed', `response ${status} was removed`);
      continue;
    }
    const baseResponse = resolveBase(baseResponseRef).value ?? {};
    const headResponse = resolveHead(headResponseRef).value ?? {};
    // A media type no longer answered is compareCarriage's; the schemas of those both answer are compared here.
    for (const [media, content] of Object.entries(baseResponse.content ?? {})) {
      const next = headResponse.content?.[media];
      if (next) schemas.compare(content.schema, next.schema, join(where, 'content', media, 'schema'), 'response');
    }
    for (const name of Object.keys(baseResponse.headers ?? {})) {
      const present = Object.keys(headResponse.headers ?? {}).some((other) => other.toLowerCase() === name.toLowerCase());
      if (!present) report(join(where, 'headers', name), 'response-header-removed', `response header ${name} was removed`);
    }
  }

  const baseScopes = scopesOf(base, baseOperation);
  const added = [...scopesOf(head, headOperation)].filter((scope) => !baseScopes.has(scope));
  if (added.length > 0) report(join(at, 'security'), 'scope-added', `now also needs ${added.join(', ')}`);
}

/** 00:00:00 UTC of the current day, in epoch seconds. */
function startOfToday() {
  return dayToEpochSeconds(new Date().toISOString().slice(0, 10));
}

/** `options.today` (`YYYY-MM-DD`) in epoch seconds, or the current day; throws on a malformed day. */
function todayOf(options) {
  if (options?.today === undefined) return startOfToday();
  const seconds = dayToEpochSeconds(options.today);
  if (seconds === undefined) throw new Error(`today must be a YYYY-MM-DD day, got ${JSON.stringify(options.today)}`);
  return seconds;
}

/**
 * Every breaking change from `base` to `head`, each with the JSON path where it happens.
 * @param {{ today?: string }} [options] the day removals are judged on (default: the current UTC day)
 * @returns {Break[]}
 */
export function findBreakingChanges(base, head, options) {
  return compareSpecs(base, head, options).breaks;
}

/**
 * The breaks, and the removals that are not breaks because the removed item was deprecated and its
 * `x-sunset` day is today or earlier (`retired`: same shape, the message naming the sunset).
 * @param {{ today?: string }} [options]
 * @returns {{ breaks: Break[], retired: Break[] }}
 */
export function compareSpecs(base, head, options) {
  const today = todayOf(options);
  /** @type {Break[]} */
  const breaks = [];
  /** @type {Break[]} */
  const retired = [];
  // `removed`: the base's node of a removed operation, parameter or property, when the break is a removal.
  const report = (path, rule, message, removed) => {
    const sunset = isObject(removed) && removed.deprecated === true ? removed[sunsetKeyword] : undefined;
    const sunsetAt = dayToEpochSeconds(sunset);
    if (sunsetAt !== undefined && sunsetAt <= today) retired.push({ path, rule, message: `${message}: deprecated, and its sunset ${sunset} has come` });
    else if (sunsetAt !== undefined) breaks.push({ path, rule, message: `${message}: deprecated, but not before its sunset ${sunset}` });
    else breaks.push({ path, rule, message });
  };
  const schemas = new SchemaComparer(base, head, report);
  const context = { base, head, schemas, report };
  const resolveBase = resolver(base);
  const resolveHead = resolver(head);

  for (const [path, baseItemRef] of Object.entries(base.paths ?? {})) {
    const at = join('$.paths', path);
    const baseItem = resolveBase(baseItemRef).value ?? {};
    const headItem = head.paths?.[path] === undefined ? undefined : resolveHead(head.paths[path]).value;
    for (const method of methods) {
      if (!isObject(baseItem[method])) continue;
      const headOperation = isObject(headItem) ? headItem[method] : undefined;
      const id = baseItem[method].operationId ? ` (${baseItem[method].operationId})` : '';
      if (!isObject(headOperation)) {
        report(join(at, method), 'operation-removed', `operation ${method.toUpperCase()} ${path}${id} was removed`, baseItem[method]);
        continue;
      }
      const [baseId, headId] = [baseItem[method].operationId, headOperation.operationId];
      if (baseId !== headId) {
        report(
          join(at, method, 'operationId'),
          'operation-id-changed',
          `operationId ${baseId} became ${headId}: every generated client call \`api.${baseId}(...)\` and the handler map key ${baseId} break`,
        );
      }
      compareOperation(context, join(at, method), baseItem, headItem, baseItem[method], headOperation, method, path);
    }
  }
  // One break per place, even when two routes lead to it.
  const unique = (entries) => [...new Map(entries.map((entry) => [`${entry.path}|${entry.rule}|${entry.message}`, entry])).values()];
  return { breaks: unique(breaks), retired: unique(retired) };
}

/**
 * Operations in `head` whose operationId `base` does not have: not a break for callers, but each
 * needs a handler (`pnpm scaffold` writes a stub) before the server compiles again.
 * @returns {{ operationId: string, method: string, path: string }[]}
 */
export function findNewOperations(base, head) {
  const idsOf = (document) => {
    const resolve = resolver(document);
    const found = [];
    for (const [path, itemRef] of Object.entries(document.paths ?? {})) {
      const item = resolve(itemRef).value ?? {};
      for (const method of methods) {
        if (isObject(item[method]) && item[method].operationId) found.push({ operationId: item[method].operationId, method: method.toUpperCase(), path });
      }
    }
    return found;
  };
  const known = new Set(idsOf(base).map((operation) => operation.operationId));
  return idsOf(head).filter((operation) => !known.has(operation.operationId));
}
