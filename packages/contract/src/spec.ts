import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the bundled single-file spec (JSON), as `pnpm generate` wrote it. */
export const bundledSpecPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));

/**
 * Absolute path of the PUBLISHED spec (JSON): what consumers get at `/openapi.json` and in `/docs`.
 * Responses are open to additions and schemas hold only standard JSON Schema
 * (scripts/lib/published-spec.mjs); the service validates against the strict bundle above.
 */
export const publishedSpecPath = fileURLToPath(new URL('../generated/openapi.published.json', import.meta.url));

/** The published spec as YAML. */
export const publishedSpecYamlPath = fileURLToPath(new URL('../generated/openapi.published.yaml', import.meta.url));

/** Absolute path of the same spec as YAML, for tools that prefer it (Prism). */
export const bundledSpecYamlPath = fileURLToPath(new URL('../generated/openapi.yaml', import.meta.url));

/** The parts of an OpenAPI document this project reads at run time. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

let cached: OpenApiDocument | undefined;

/** The bundled spec, parsed once per process. */
export function loadSpec(): OpenApiDocument {
  cached ??= JSON.parse(readFileSync(bundledSpecPath, 'utf8')) as OpenApiDocument;
  return cached;
}

/** A JSON object node of the spec (an operation, a schema, a parameter…). */
export type SpecNode = Record<string, unknown>;

export function isSpecNode(value: unknown): value is SpecNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Follows local references (`#/components/...`, the only kind a bundled spec holds) until a node
 * that is not a reference; undefined when that is not an object or a reference does not resolve.
 */
export function resolveRef(spec: OpenApiDocument, value: unknown): SpecNode | undefined {
  let node = value;
  // A bound, so that a reference cycle cannot loop forever.
  for (let depth = 0; depth < 16 && isSpecNode(node) && typeof node.$ref === 'string'; depth += 1) {
    const reference = node.$ref;
    node = reference.startsWith('#/')
      ? reference
          .slice(2)
          .split('/')
          .reduce<unknown>((current, key) => (isSpecNode(current) ? current[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), spec)
      : undefined;
  }
  return isSpecNode(node) ? node : undefined;
}
