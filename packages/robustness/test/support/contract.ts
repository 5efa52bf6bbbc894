// Checks an answer against the bundled spec as a client would: is the status documented for that
// operation, and does the body match that response's schema (Ajv, JSON Schema 2020-12, with the
// contract's decimal formats)? One compiled validator per operation and status.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadSpec, numberFormats, operationTable, type OperationId } from '@invoice-api/contract';

const spec = loadSpec();
const specId = 'openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: under ESM its function is the namespace's `default`.
addFormats.default(ajv);
for (const format of numberFormats) ajv.addFormat(format.name, { type: format.type, validate: format.validate });
ajv.addSchema(spec as object, specId);

type JsonObject = Record<string, unknown>;

function pointerEscape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function resolve(pointer: string): JsonObject | undefined {
  let node: unknown = spec;
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as JsonObject | undefined)?.[segment];
  }
  return node as JsonObject | undefined;
}

/**
 * The pointer of the response's JSON schema, following a `$ref` to components/responses; the media
 * types it lists when it has no JSON (a PDF, a CSV), whose bodies no JSON schema checks.
 */
function responseSchemaPointer(operationId: OperationId, status: number): string | undefined | null | { mediaTypes: string[] } {
  const operation = operationTable[operationId];
  const base = `#/paths/${pointerEscape(operation.path)}/${operation.method.toLowerCase()}/responses/${status}`;
  let pointer = base;
  let response = resolve(pointer);
  if (response === undefined) return null; // not documented
  if (typeof response['$ref'] === 'string') {
    pointer = response['$ref'];
    response = resolve(pointer);
  }
  const content = response?.['content'] as JsonObject | undefined;
  if (content === undefined) return undefined; // documented without a body
  if (content['application/json'] === undefined) return { mediaTypes: Object.keys(content) };
  return `${pointer}/content/${pointerEscape('application/json')}/schema`;
}

const validators = new Map<string, ValidateFunction>();

export interface ContractVerdict {
  documented: boolean;
  errors: string[];
}

export function checkAgainstSpec(operationId: OperationId, status: number, body: unknown, contentType?: string | null): ContractVerdict {
  const pointer = responseSchemaPointer(operationId, status);
  if (pointer === null) return { documented: false, errors: [`status ${status} is not documented for ${operationId}`] };
  if (pointer === undefined) return { documented: true, errors: body === undefined || body === '' ? [] : ['a body where the spec documents none'] };
  if (typeof pointer === 'object') {
    const received = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    return {
      documented: true,
      errors: pointer.mediaTypes.includes(received) ? [] : [`Content-Type ${received || 'none'}, not one of ${pointer.mediaTypes.join(', ')}`],
    };
  }
  const key = `${specId}${pointer}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: key });
    validators.set(key, validate);
  }
  const valid = validate(body);
  return { documented: true, errors: valid ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`) };
}
