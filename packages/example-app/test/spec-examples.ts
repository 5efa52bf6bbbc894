// The spec's named examples, which is what the Prism mock answers: the mock test's expectations come
// from here, never from copies of the examples.
import { loadSpec, resolveRef } from '@invoice-api/contract';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of `components.examples[name]`. */
export function namedExample<T>(name: string): T {
  const spec = loadSpec();
  const example = resolveRef(spec, spec.components.examples?.[name]);
  if (!example || !('value' in example)) throw new Error(`the spec has no example ${name}`);
  return example.value as T;
}

/** What the mock answers without `Prefer`: the first example of that operation's response. */
export function firstExample<T>(path: string, method: string, status: number): T {
  const spec = loadSpec();
  const operation = spec.paths[path]?.[method];
  const response = isObject(operation) && isObject(operation.responses) ? resolveRef(spec, operation.responses[String(status)]) : undefined;
  const content = response && isObject(response.content) ? response.content['application/json'] : undefined;
  const examples = isObject(content) && isObject(content.examples) ? Object.values(content.examples) : [];
  const first = resolveRef(spec, examples[0]);
  if (!first || !('value' in first)) throw new Error(`${method.toUpperCase()} ${path} has no ${status} example`);
  return first.value as T;
}

/** The `example` of a non-JSON answer (a CSV text), as the MSW handlers answer it. */
export function mediaExample(path: string, method: string, status: number, mediaType: string): unknown {
  const spec = loadSpec();
  const operation = spec.paths[path]?.[method];
  const response = isObject(operation) && isObject(operation.responses) ? resolveRef(spec, operation.responses[String(status)]) : undefined;
  const content = response && isObject(response.content) ? response.content[mediaType] : undefined;
  if (!isObject(content) || !('example' in content)) throw new Error(`${method.toUpperCase()} ${path} has no ${status} ${mediaType} example`);
  return content.example;
}
