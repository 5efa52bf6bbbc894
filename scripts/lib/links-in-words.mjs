// Redoc (the reference at /docs) does not render OpenAPI `links`: it shows a response's description,
// headers and body, and nothing of where the answer leads. So the published spec says each link in
// words at the end of its response's description: the link's name, the operation it calls, where each
// parameter and body member comes from, and the link's own description. The `links` stay as they are
// for tools that read them (the stateful test in packages/robustness follows them).
const linkPrefix = '#/components/links/';

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `invoice_id` = `$response.body#/invoice/id`, for each parameter and each expression inside the body. */
function sources(link) {
  const parts = Object.entries(link.parameters ?? {}).map(([name, expression]) => `\`${name}\` = \`${expression}\``);
  const bodyParts = (value, path) => {
    if (typeof value === 'string' && value.startsWith('$')) return [`body \`${path}\` = \`${value}\``];
    if (Array.isArray(value)) return value.flatMap((entry, index) => bodyParts(entry, `${path}/${index}`));
    if (isObject(value)) return Object.entries(value).flatMap(([key, entry]) => bodyParts(entry, `${path}/${key}`));
    return [];
  };
  if (link.requestBody !== undefined) parts.push(...bodyParts(link.requestBody, ''));
  return parts.join(', ');
}

/** The sentence list appended to a response's description; `links` maps names to links or their `$ref`s. */
export function linksSentence(links, components) {
  const lines = Object.entries(links).map(([name, entry]) => {
    const link = typeof entry?.$ref === 'string' && entry.$ref.startsWith(linkPrefix) ? components[entry.$ref.slice(linkPrefix.length)] : entry;
    if (!isObject(link) || typeof link.operationId !== 'string') throw new Error(`published spec: link ${name} names no operationId`);
    const from = sources(link);
    const description = String(link.description ?? '')
      .trim()
      .replace(/\s+/g, ' ');
    return `- \`${name}\`: **${link.operationId}**${from === '' ? '' : ` with ${from}`}. ${description}`.trimEnd();
  });
  return `**Links** (what to call next with this answer):\n\n${lines.join('\n')}`;
}

/** Appends the links sentence to every response of every operation that declares links. */
export function describeLinks(spec) {
  const components = spec.components?.links ?? {};
  for (const pathItem of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const response of Object.values(operation.responses)) {
        if (!isObject(response) || !isObject(response.links) || Object.keys(response.links).length === 0) continue;
        const description = typeof response.description === 'string' ? response.description.trimEnd() : '';
        response.description = `${description}\n\n${linksSentence(response.links, components)}`;
      }
    }
  }
}
