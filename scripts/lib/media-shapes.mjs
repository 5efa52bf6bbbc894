// How each body of each operation is read and written, derived once from the bundled spec at generate
// time: for the request and for every documented status, which media types the spec lists and what
// kind of body each is (JSON, text, bytes, multipart), with the facts a layer needs to carry it (a
// text's charset and maxLength, a multipart body's parts with their files' media types and sizes),
// and how each query parameter is serialized (`style`, `explode`). The handler types, the service,
// the client, the query options and the mocks read these facts from the operation table instead of
// each guessing from `application/json`.
import { isRecord, resolveRef } from '../../packages/contract/src/json-nodes.mjs';

/** The media type of a multipart body the kit reads; `application/x-www-form-urlencoded` is not one. */
const multipartFormData = 'multipart/form-data';

/** `application/json` and every `+json` suffix type (RFC 6839). */
function isJsonMediaType(mediaType) {
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

/**
 * The kind of body a media type carries. `text/*` is text (a string, UTF-8); JSON is JSON; multipart
 * is parts; every other concrete type (a PDF, an image, `application/octet-stream`) is bytes. Ranges
 * (`image/*`) and url-encoded forms are refused: a body the kit would have to guess at.
 */
export function mediaKind(mediaType, where) {
  if (isJsonMediaType(mediaType)) return 'json';
  if (mediaType === multipartFormData) return 'multipart';
  if (mediaType === 'application/x-www-form-urlencoded') {
    throw new Error(`${where}: application/x-www-form-urlencoded is not carried by the kit; use application/json or multipart/form-data`);
  }
  if (!/^[a-z]+\/[a-z0-9][\w.+-]*$/.test(mediaType)) {
    throw new Error(`${where}: the media type ${JSON.stringify(mediaType)} is not one concrete type (type/subtype, lower case)`);
  }
  return mediaType.startsWith('text/') ? 'text' : 'bytes';
}

/** A schema's `maxLength`, where it states one. */
function maxLengthOf(schema) {
  return typeof schema?.maxLength === 'number' ? { maxLength: schema.maxLength } : {};
}

/** Whether a (resolved) schema is a file: `format: binary` (OpenAPI 3.0 style) or `contentMediaType` (3.1). */
function isFileSchema(schema) {
  return schema?.type === 'string' && (schema.format === 'binary' || typeof schema.contentMediaType === 'string');
}

/** `encoding.<name>.contentType` as a list (`application/pdf, image/png`), else the schema's `contentMediaType`. */
function allowedContentTypes(encoding, schema) {
  const declared = typeof encoding?.contentType === 'string' ? encoding.contentType : schema?.contentMediaType;
  if (typeof declared !== 'string') return [];
  return declared
    .split(',')
    .map((type) => type.trim().toLowerCase())
    .filter((type) => type !== '');
}

/**
 * The parts of a multipart body, in declaration order: each property a file (or an array of files:
 * `multiple`) or a field, whether it is required, a file's largest size (`maxLength`) and the media
 * types its part may declare (`encoding.contentType`).
 */
function multipartParts(spec, mediaObject, where) {
  const schema = resolveRef(spec, mediaObject.schema);
  if (schema?.type !== 'object' || !isRecord(schema.properties)) {
    throw new Error(`${where}: a multipart/form-data body needs an object schema with properties, one per part`);
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  const encoding = isRecord(mediaObject.encoding) ? mediaObject.encoding : {};
  return Object.entries(schema.properties).map(([name, propertyOrReference]) => {
    const property = resolveRef(spec, propertyOrReference) ?? {};
    const items = property.type === 'array' ? resolveRef(spec, property.items) : undefined;
    const fileSchema = isFileSchema(property) ? property : isFileSchema(items) ? items : undefined;
    const base = { name, required: required.includes(name) };
    if (fileSchema === undefined) {
      // A part carries text or a file: a field typed otherwise would be refused by the validator,
      // which does not coerce, however a client wrote it.
      const text = property.type === 'array' ? items : property;
      if (text?.type !== 'string')
        throw new Error(`${where}: the multipart field ${name} must be a string (or an array of strings): a part carries text or a file`);
      return { ...base, kind: 'field', multiple: property.type === 'array' };
    }
    return {
      ...base,
      kind: 'file',
      multiple: items !== undefined,
      contentTypes: allowedContentTypes(resolveRef(spec, encoding[name]), fileSchema),
      ...maxLengthOf(fileSchema),
      ...(typeof property.maxItems === 'number' ? { maxItems: property.maxItems } : {}),
    };
  });
}

/** One media type of a body: its kind and what carrying it needs. */
function mediaFacts(spec, mediaType, mediaObjectOrReference, where) {
  const mediaObject = resolveRef(spec, mediaObjectOrReference) ?? {};
  const kind = mediaKind(mediaType, where);
  const schema = resolveRef(spec, mediaObject.schema);
  if (kind === 'multipart') return { mediaType, kind, parts: multipartParts(spec, mediaObject, where) };
  if (kind === 'text') return { mediaType, kind, charset: 'utf-8', ...maxLengthOf(schema) };
  if (kind === 'bytes') return { mediaType, kind, ...maxLengthOf(schema) };
  return { mediaType, kind };
}

/** The request body's media types, in the spec's order; null when the operation takes no body. */
export function requestMedia(spec, operation, where) {
  const body = resolveRef(spec, operation.requestBody);
  if (body === undefined) return null;
  const content = isRecord(body.content) ? body.content : {};
  const media = Object.entries(content).map(([mediaType, mediaObject]) => mediaFacts(spec, mediaType, mediaObject, `${where} request body`));
  if (media.length === 0) throw new Error(`${where}: the request body lists no media type`);
  return { required: body.required === true, media };
}

/**
 * Each documented status's media types, in the spec's order: an empty list is an answer with no body
 * (a `204`, a `304`). Keyed by the status as the spec writes it.
 */
export function responseMedia(spec, operation, where) {
  const answers = {};
  for (const [status, responseOrReference] of Object.entries(operation.responses ?? {})) {
    const response = resolveRef(spec, responseOrReference) ?? {};
    const content = isRecord(response.content) ? response.content : {};
    const answer = `${where} ${status} answer`;
    answers[status] = Object.entries(content).map(([mediaType, mediaObject]) => {
      if (mediaType === multipartFormData) throw new Error(`${answer}: multipart/form-data is a request body; an answer is one document`);
      return mediaFacts(spec, mediaType, mediaObject, answer);
    });
  }
  return answers;
}

/**
 * How a query parameter is written in the URL (OpenAPI's defaults: `form`, exploded), and the shape of
 * its value: `?status=a&status=b` (form, exploded array), `?status=a,b` (form, not exploded),
 * `?filter[color]=red` (deepObject). Only the styles OpenAPI allows in a query are accepted.
 */
export function queryStyle(spec, parameter, where) {
  const schema = resolveRef(spec, parameter.schema) ?? {};
  const style = typeof parameter.style === 'string' ? parameter.style : 'form';
  const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
  const shape = schema.type === 'array' ? 'array' : schema.type === 'object' ? 'object' : 'scalar';
  const name = `${where} query parameter ${parameter.name}`;
  if (!['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'].includes(style)) throw new Error(`${name}: style ${style} is not a query style`);
  if (style === 'deepObject' && (shape !== 'object' || !explode)) throw new Error(`${name}: deepObject takes an object schema and explode: true`);
  if ((style === 'spaceDelimited' || style === 'pipeDelimited') && (shape !== 'array' || explode)) {
    throw new Error(`${name}: ${style} takes an array schema and explode: false`);
  }
  if (shape === 'object' && style === 'form') throw new Error(`${name}: an object in a query is written as style deepObject`);
  return { style, explode, shape };
}
