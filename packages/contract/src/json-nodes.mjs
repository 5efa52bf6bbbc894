// Reading JSON documents: the one `isRecord` and the one resolver of a bundled spec's local `$ref`s.
// Plain JS (with json-nodes.d.mts) so that the generator (scripts/) runs it without a TypeScript
// loader; the contract re-exports both for the service and the tests.

/**
 * A JSON object (not an array, not null).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Follows local references (`#/components/...`, the only kind a bundled spec holds) until a node
 * that is not a reference; undefined when that is not an object or a reference does not resolve.
 * @param {unknown} document the whole document the references point into
 * @param {unknown} value a node, or a `{$ref}` to one
 * @returns {Record<string, unknown> | undefined}
 */
export function resolveRef(document, value) {
  let node = value;
  // A bound, so that a reference cycle cannot loop forever.
  for (let depth = 0; depth < 16 && isRecord(node) && typeof node.$ref === 'string'; depth += 1) {
    const reference = node.$ref;
    node = reference.startsWith('#/')
      ? reference
          .slice(2)
          .split('/')
          .reduce((current, key) => (isRecord(current) ? current[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document)
      : undefined;
  }
  return isRecord(node) ? node : undefined;
}
