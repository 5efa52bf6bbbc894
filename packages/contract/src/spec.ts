import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { isRecord, resolveRef } from './json-nodes.mjs';

/** Absolute path of the bundled single-file spec (JSON), as `pnpm generate` wrote it. */
export const bundledSpecPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));

/**
 * The bundled spec as the service's request validator compiles it: the same rules, plus Ajv's
 * `discriminator` hints that keep a bad search criterion's errors to its own branch
 * (scripts/lib/validator-spec.mjs says why).
 */
export const validatorSpecPath = fileURLToPath(new URL('../generated/openapi.validator.json', import.meta.url));

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
