// What makes two requests "the same request" for an idempotency key: the operation, the path (which
// names the resource) and the body with its keys sorted, hashed. Whitespace, key order and number
// spelling (`1.50` / `1.5`) do not matter; any value that does differ does.
//
// An uploaded file (a web `File` of a multipart body) would stringify as `{}`, so two different files
// would look alike: each stands in the fingerprint for its name, declared type, size and the SHA-256
// of its bytes. Reading the bytes is asynchronous, hence the promise; the body is whole by then (the
// body step reads a multipart body completely before the idempotency step runs).
import { createHash } from 'node:crypto';

export async function requestFingerprint(operationId: string, path: string, body: unknown): Promise<string> {
  const files = filesIn(body, []);
  // Most bodies are JSON without a file: nothing to wait for.
  const facts = files.length === 0 ? noFiles : new Map(await Promise.all(files.map(async (file) => [file, await fileFacts(file)] as const)));
  return createHash('sha256')
    .update(JSON.stringify([operationId, path, canonical(body, facts)]))
    .digest('hex');
}

const noFiles: ReadonlyMap<File, unknown> = new Map();

/** Every `File` in the value, in the order met. */
function filesIn(value: unknown, found: File[]): File[] {
  if (value instanceof File) found.push(value);
  else if (Array.isArray(value)) for (const item of value) filesIn(item, found);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) filesIn(item, found);
  return found;
}

/** A file as the fingerprint sees it: tagged, so no JSON object can be taken for one. */
async function fileFacts(file: File): Promise<unknown> {
  const sha256 = createHash('sha256')
    .update(new Uint8Array(await file.arrayBuffer()))
    .digest('hex');
  return { '(file)': { name: file.name, type: file.type, size: file.size, sha256 } };
}

/** The value with every object's keys in sorted order (arrays keep theirs: their order is meaning), files by their facts. */
function canonical(value: unknown, files: ReadonlyMap<File, unknown>): unknown {
  if (value instanceof File) return files.get(value);
  if (Array.isArray(value)) return value.map((item) => canonical(item, files));
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = canonical((value as Record<string, unknown>)[key], files);
  return sorted;
}
