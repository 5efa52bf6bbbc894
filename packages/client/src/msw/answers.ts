// Which answer a request gets when nothing overrides it, as Prism chooses: `Prefer: code=<status>`
// picks the status, `Prefer: example=<name>` the named example (of that status, or of whichever
// documented answer has it), `Prefer: dynamic=true` seeded data. Otherwise the success answer: its
// first named example, or seeded data when `seed` is set (or the spec has no example for it).
import type { OperationId } from '@invoice-api/contract';
import { generationSchemas, mswOperations } from '../../generated/msw-answers.js';
import type { AnswerFacts } from './answer-table.js';
import { sampleValue, seedOf } from './sample-data.js';

/** The `Prefer` header's preferences (RFC 7240), as Prism reads them: `code`, `example`, `dynamic`. */
export function preferences(header: string | null): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (header ?? '').split(/[,;]/)) {
    const [name, ...value] = part.split('=');
    const key = name?.trim().toLowerCase();
    if (key)
      found.set(
        key,
        value
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
  }
  return found;
}

export interface ChosenAnswer {
  status: number;
  /** Undefined: the answer has no body. */
  body: unknown;
  headers: Record<string, string>;
}

/** The answer `operationId` gives with `status`, without a body of the caller's: an example or seeded data. */
export function documentedAnswer(operationId: OperationId, status: number, options: { seed?: number; example?: string; dynamic?: boolean }): ChosenAnswer {
  const facts = mswOperations[operationId].answers[String(status)];
  if (facts === undefined) throw new Error(`${operationId} documents no ${status} answer`);
  return { status, body: bodyOf(operationId, status, facts, options), headers: { ...facts.headers } };
}

function bodyOf(operationId: OperationId, status: number, facts: AnswerFacts, options: { seed?: number; example?: string; dynamic?: boolean }): unknown {
  if (options.example !== undefined && Object.hasOwn(facts.examples, options.example)) return structuredClone(facts.examples[options.example]);
  const [first] = Object.values(facts.examples);
  const generated = options.dynamic === true || options.seed !== undefined || first === undefined;
  if (!generated) return structuredClone(first);
  if (facts.schema === undefined) return undefined;
  return sampleValue(facts.schema, generationSchemas, seedOf(`${options.seed ?? 1}:${operationId}:${status}`));
}

/** The status and example a request's `Prefer` header asks for, among what the operation documents. */
export function preferredAnswer(operationId: OperationId, prefer: string | null, seed: number | undefined): ChosenAnswer | undefined {
  const wanted = preferences(prefer);
  if (!wanted.has('code') && !wanted.has('example') && !wanted.has('dynamic')) return undefined;
  const answers = mswOperations[operationId].answers;
  const example = wanted.get('example');
  const code = wanted.get('code');
  // An example without a code: the first documented answer that has it, success first (the spec's order).
  const status =
    code ?? (example === undefined ? undefined : Object.keys(answers).find((candidate) => Object.hasOwn(answers[candidate]?.examples ?? {}, example)));
  const chosen = status === undefined ? successStatus(operationId) : Number(status);
  if (answers[String(chosen)] === undefined) return undefined;
  return documentedAnswer(operationId, chosen, {
    ...(seed === undefined ? {} : { seed }),
    ...(example === undefined ? {} : { example }),
    dynamic: wanted.get('dynamic') === 'true',
  });
}

export function successStatus(operationId: OperationId): number {
  return Number(Object.keys(mswOperations[operationId].answers).find((status) => status.startsWith('2')));
}
