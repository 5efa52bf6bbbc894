// Every documented answer of the bundled spec (operation, status, named example and its value),
// read from the spec itself, so the mock scenarios cover a new answer without being edited.
import { loadSpec, operationTable, resolveRef, type OperationId } from '@invoice-api/contract';

export interface DocumentedAnswer {
  operationId: OperationId;
  status: number;
  example: string;
  value: unknown;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows internal `#/components/...` references, the only kind a bundled spec holds. */
function resolve(value: unknown): unknown {
  return resolveRef(loadSpec(), value);
}

export function documentedAnswers(): DocumentedAnswer[] {
  const spec = loadSpec();
  const answers: DocumentedAnswer[] = [];
  for (const operation of Object.values(operationTable)) {
    const item = resolve(spec.paths[operation.path]);
    const definition = isObject(item) ? resolve(item[operation.method.toLowerCase()]) : undefined;
    const responses = isObject(definition) ? definition.responses : undefined;
    if (!isObject(responses)) throw new Error(`spec: ${operation.operationId} has no responses`);
    for (const [status, response] of Object.entries(responses)) {
      const content = resolve(response);
      const json = isObject(content) && isObject(content.content) ? resolve(content.content['application/json']) : undefined;
      const examples = isObject(json) && isObject(json.examples) ? json.examples : {};
      for (const [name, example] of Object.entries(examples)) {
        const resolved = resolve(example);
        answers.push({ operationId: operation.operationId, status: Number(status), example: name, value: isObject(resolved) ? resolved.value : undefined });
      }
    }
  }
  return answers;
}
