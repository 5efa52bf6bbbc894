// Redocly lint rules for how bodies are carried (declared in redocly.yaml `plugins:`), the checks the
// assertion language of `rule/...` cannot say because they relate one node to another: a schema to the
// media type it stands under, a multipart property to its `encoding` entry. Which media type is JSON,
// multipart, text or bytes is media-shapes.mjs's `mediaKind`, the one the operation table uses.
//   shapes/binary-states-media-type: bytes (`format: binary`, `contentMediaType`) stand only as the
//     schema of a non-JSON media type or as a file property of a multipart/form-data body, and a file
//     part states the media types it may be (`encoding.<name>.contentType` or `contentMediaType`).
//   shapes/multipart-file-encoding: a multipart/form-data request body has an `encoding` entry for
//     each file property.
import { mediaKind } from './media-shapes.mjs';

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Bytes: a schema the kit reads as a file, not as a JSON value. */
const isBinary = (schema) => isRecord(schema) && (schema.format === 'binary' || typeof schema.contentMediaType === 'string');

/** The kind of body a media type carries (json, text, bytes, multipart); undefined where the kit refuses it. */
function kindOf(mediaType) {
  try {
    return mediaKind(String(mediaType), String(mediaType));
  } catch {
    return undefined;
  }
}

/**
 * A node and its location: a `$ref` resolved from the file it is written in, an inline node at
 * `location` (the walker's `ctx.resolve` answers an inline node with the location of the visited one).
 */
function at(ctx, value, location) {
  if (isRecord(value) && typeof value.$ref === 'string') {
    const resolved = ctx.resolve(value, location.source.absoluteRef);
    return resolved.node === undefined || resolved.location === undefined ? undefined : { node: resolved.node, location: resolved.location };
  }
  return value === undefined ? undefined : { node: value, location };
}

/** The file properties of a multipart body's schema: each with its (resolved) file schema and location. */
function fileProperties(ctx, media, location) {
  const schema = at(ctx, media.schema, location.child(['schema']));
  if (schema === undefined || !isRecord(schema.node.properties)) return [];
  return Object.entries(schema.node.properties).flatMap(([name, value]) => {
    const property = at(ctx, value, schema.location.child(['properties', name]));
    if (property === undefined) return [];
    if (isBinary(property.node)) return [{ name, file: property, property }];
    const items = property.node.type === 'array' ? at(ctx, property.node.items, property.location.child(['items'])) : undefined;
    return items !== undefined && isBinary(items.node) ? [{ name, file: items, property }] : [];
  });
}

/** The subschemas of a schema, each at its location: where a value nested in a JSON body is described. */
function subschemas(schema, location) {
  const found = [];
  for (const keyword of ['properties', 'patternProperties', 'dependentSchemas']) {
    if (isRecord(schema[keyword])) for (const [name, value] of Object.entries(schema[keyword])) found.push([value, location.child([keyword, name])]);
  }
  for (const keyword of ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'not', 'if', 'then', 'else']) {
    if (isRecord(schema[keyword])) found.push([schema[keyword], location.child([keyword])]);
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(schema[keyword])) for (const [index, value] of schema[keyword].entries()) found.push([value, location.child([keyword, index])]);
  }
  return found;
}

function BinaryStatesMediaType() {
  /** Every binary schema the walker visits (each node once), with its location. */
  const binaries = new Map();
  /** Binary schemas standing where bytes may: a non-JSON body's schema, a multipart file property. */
  const placed = new Set();
  /** Binary schemas inside a JSON body, with the media type: reported as such even when also placed elsewhere. */
  const inJson = new Map();

  function findInJson(ctx, mediaType, value, location, seen) {
    const schema = at(ctx, value, location);
    if (schema === undefined || !isRecord(schema.node) || seen.has(schema.node)) return;
    seen.add(schema.node);
    // Reported where the JSON body names it (a shared file schema's `$ref`), not in the shared file.
    if (isBinary(schema.node) && !inJson.has(schema.node)) inJson.set(schema.node, { mediaType, location });
    for (const [child, childLocation] of subschemas(schema.node, schema.location)) findInJson(ctx, mediaType, child, childLocation, seen);
  }

  return {
    Schema: {
      enter(schema, ctx) {
        if (isBinary(schema) && !binaries.has(schema)) binaries.set(schema, ctx.location);
      },
    },
    MediaType: {
      enter(media, ctx) {
        const kind = kindOf(ctx.key);
        if (kind === 'json') {
          findInJson(ctx, String(ctx.key), media.schema, ctx.location.child(['schema']), new Set());
        } else if (kind === 'multipart') {
          const encoding = isRecord(media.encoding) ? media.encoding : {};
          for (const { name, file, property } of fileProperties(ctx, media, ctx.location)) {
            placed.add(file.node);
            const part = at(ctx, encoding[name], ctx.location.child(['encoding', name]))?.node;
            if (typeof part?.contentType === 'string' || typeof file.node.contentMediaType === 'string') continue;
            ctx.report({
              message: `The file part \`${name}\` of a ${ctx.key} body must state which media types the part may be: give encoding.${name}.contentType (e.g. \`application/pdf, image/png\`) or the schema's contentMediaType.`,
              location: property.location,
            });
          }
        } else if (kind === 'text' || kind === 'bytes') {
          const schema = at(ctx, media.schema, ctx.location.child(['schema']));
          if (schema !== undefined) placed.add(schema.node);
        }
      },
    },
    Root: {
      leave(_root, ctx) {
        for (const [schema, { mediaType, location }] of inJson) {
          ctx.report({
            message: `A binary schema (format: binary or contentMediaType) under ${mediaType}: a JSON body cannot hold bytes. Carry the file as a media type of its own (application/pdf) or as a file part of a multipart/form-data body.`,
            location,
          });
          binaries.delete(schema);
        }
        for (const [schema, location] of binaries) {
          if (placed.has(schema)) continue;
          ctx.report({
            message:
              'A binary schema (format: binary or contentMediaType) must state its media type: it stands only as the schema of a non-JSON media type of a request or response (application/pdf, image/png) or as a file property of a multipart/form-data body.',
            location,
          });
        }
      },
    },
  };
}

function MultipartFileEncoding() {
  return {
    RequestBody: {
      MediaType: {
        enter(media, ctx) {
          if (kindOf(ctx.key) !== 'multipart') return;
          const encoding = isRecord(media.encoding) ? media.encoding : {};
          for (const { name } of fileProperties(ctx, media, ctx.location)) {
            if (encoding[name] !== undefined) continue;
            ctx.report({
              message: `A ${ctx.key} request body needs an encoding entry for each file property: add encoding.${name} (with the part's contentType).`,
              location: isRecord(media.encoding) ? ctx.location.child(['encoding']) : ctx.location.key(),
            });
          }
        },
      },
    },
  };
}

export default function shapesPlugin() {
  return {
    id: 'shapes',
    rules: {
      oas3: {
        'binary-states-media-type': BinaryStatesMediaType,
        'multipart-file-encoding': MultipartFileEncoding,
      },
    },
  };
}
