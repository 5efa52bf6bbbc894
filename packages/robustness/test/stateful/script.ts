// The replay script of a failing sequence: one curl call per step, in order, where every id, ETag and
// cursor that the run took from an earlier answer (by a link) is taken from that answer again (jq on
// the saved body, or the saved headers), so the script runs against any service and account.
import type { Step } from './real.js';
import { pathOf, type FormPart, type ValueSource } from './model.js';

export interface ScriptFixture {
  clientIds: readonly number[];
  foreignClientId: number;
}

const quoteSingle = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** `/invoice/id` -> `.invoice.id`, `/data/0/id` -> `.data[0].id`. */
function jqPath(pointer: string): string {
  const path = pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^\d+$/.test(token) ? `[${token}]` : /^[A-Za-z_]\w*$/.test(token) ? `.${token}` : `[${JSON.stringify(token)}]`))
    .join('');
  return path.startsWith('[') ? `.${path}` : path;
}

/** A shell expression that yields the value again in a rerun. */
function shellValue(source: ValueSource): string {
  switch (source.kind) {
    case 'client':
      return `$CLIENT_${source.index + 1}`;
    case 'foreign-client':
      return '$OTHER_CLIENT';
    case 'answer': {
      const step = source.step + 1;
      if (source.expression.startsWith('$response.header.')) return `$(header ${step} ${source.expression.slice('$response.header.'.length)})`;
      return `$(jq -r ${quoteSingle(jqPath(source.expression.replace(/^\$response\.body#/, '')))} r${step}.json)`;
    }
    case 'entity-tag':
      return `"$(jq -r ${quoteSingle(jqPath(source.expression.replace(/^\$response\.body#/, '')))} r${source.step + 1}.json)-${source.version}"`;
  }
}

/** The body as a single-quoted shell word, with the linked values spliced in as substitutions. */
function bodyWord(body: unknown, sources: Readonly<Record<string, ValueSource>>): string {
  const splices: Array<{ marker: string; value: unknown; source: ValueSource }> = [];
  const mark = (node: unknown, path: string): unknown => {
    const source = sources[`body${path}`];
    if (source !== undefined) {
      const marker = `@@splice${splices.length}@@`;
      splices.push({ marker, value: node, source });
      return marker;
    }
    if (Array.isArray(node)) return node.map((entry, index) => mark(entry, `${path}/${index}`));
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([key, entry]) => [key, mark(entry, `${path}/${key}`)]));
    return node;
  };
  let word = quoteSingle(JSON.stringify(mark(body, '')));
  for (const { marker, value, source } of splices) {
    const substitution = typeof value === 'string' ? `"'"${shellValue(source)}"'"` : `'"${shellValue(source)}"'`;
    word = word.replace(`"${marker}"`, substitution);
  }
  return word;
}

function headerValue(name: string, value: string, source: ValueSource | undefined): string {
  if (source === undefined) return quoteSingle(`${name}: ${value}`);
  if (source.kind === 'entity-tag')
    return `"${name}: \\"$(jq -r ${quoteSingle(jqPath(source.expression.replace(/^\$response\.body#/, '')))} r${source.step + 1}.json)-${source.version}\\""`;
  return `"${name}: ${shellValue(source)}"`;
}

/**
 * A multipart body as curl's form options: each file is written from base64 first (fN-P.bin, the
 * exact bytes the run sent), then named with its declared type and file name; text fields go as
 * --form-string, which takes `@` and `<` literally.
 */
function formOptions(parts: readonly FormPart[], number: number): { files: string[]; options: string[] } {
  const files: string[] = [];
  const options: string[] = [];
  parts.forEach((part, index) => {
    if ('value' in part) {
      options.push(`--form-string ${quoteSingle(`${part.name}=${part.value}`)}`);
      return;
    }
    const file = `f${number}-${index + 1}.bin`;
    files.push(`printf '%s' ${quoteSingle(Buffer.from(part.bytes).toString('base64'))} | base64 -d > ${file}`);
    options.push(`-F ${quoteSingle(`${part.name}=@${file};type=${part.mediaType};filename="${part.fileName}"`)}`);
  });
  return { files, options };
}

function curlLine(step: Step, number: number): string {
  const { request } = step;
  const path = request.template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const source = request.sources[`path.${name}`];
    return source === undefined ? String(request.pathValues[name]) : shellValue(source);
  });
  const parts = [`call ${number} -X ${request.method} "$BASE${path}"`, `-H "Authorization: Bearer $${request.actor === 'mine' ? 'TOKEN' : 'OTHER_TOKEN'}"`];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = name === 'Idempotency-Key' ? `${value}-$KEY_SUFFIX` : value;
    parts.push(`-H ${name === 'Idempotency-Key' ? `"${name}: ${shown}"` : headerValue(name, value, request.sources[`header.${name}`])}`);
  }
  if (request.bodyKind === 'multipart') {
    const form = formOptions(request.body as FormPart[], number);
    parts.push(...form.options);
    return [...form.files, parts.join(' \\\n  ')].join('\n');
  }
  if (request.body !== undefined) parts.push(`-H 'Content-Type: application/json' -d ${bodyWord(request.body, request.sources)}`);
  return parts.join(' \\\n  ');
}

export function replayScript(transcript: readonly Step[], fixture: ScriptFixture, failure: { seed: number; path: string; message: string }): string {
  const lines = [
    '#!/usr/bin/env bash',
    `# The minimal failing sequence of the stateful test (seed ${failure.seed}, path ${failure.path}), as curl calls.`,
    '# Run it in an empty folder (it writes rN.json and hN.txt per step, and fN-P.bin per uploaded file)',
    '# against a service with an account that has no invoices or deliveries yet: TOKEN is a token of that',
    '# account, CLIENT_1 and CLIENT_2 are two of its company clients; OTHER_TOKEN and OTHER_CLIENT belong to',
    '# another account. Ids, ETags and cursors are read back from the earlier answers, as the test took',
    '# them (OpenAPI links).',
    'set -u',
    `BASE=\${BASE:-http://127.0.0.1:3000}`,
    ...fixture.clientIds.map((id, index) => `CLIENT_${index + 1}=\${CLIENT_${index + 1}:-${id}}  # the run's value`),
    `OTHER_CLIENT=\${OTHER_CLIENT:-${fixture.foreignClientId}}  # the run's value`,
    `KEY_SUFFIX=\${KEY_SUFFIX:-$$}  # idempotency keys are per account: a fresh suffix per rerun`,
    `call() { local step=$1; shift; curl -sS -o "r$step.json" -D "h$step.txt" -w "step $step: %{http_code}\\n" "$@"; }`,
    `header() { grep -i "^$2:" "h$1.txt" | cut -d' ' -f2- | tr -d '\\r'; }`,
    '',
  ];
  transcript.forEach((step, index) => {
    const last = index === transcript.length - 1;
    lines.push(`# ${index + 1}. ${step.request.operationId} ${pathOf(step.request)}: expected ${step.expected}; the run got ${step.status}`);
    if (last) lines.push(`# ^ here the service disagreed with the model: ${failure.message.split('\n')[0]}`);
    lines.push(curlLine(step, index + 1), '');
  });
  return lines.join('\n');
}
