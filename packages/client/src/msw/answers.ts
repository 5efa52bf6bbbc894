// Which answer a request gets when nothing overrides it, as Prism chooses: `Prefer: code=<status>`
// picks the status, `Prefer: example=<name>` the named example (of that status, or of whichever
// documented answer has it), `Prefer: dynamic=true` seeded data. Otherwise the success answer: its
// first named example, or seeded data when `seed` is set (or the spec has no example for it). Of a
// status with several media types, the one the request's Accept header prefers (the spec's first when
// it states no preference); the body is of that media type's kind in the operation table: JSON, text,
// bytes (the example, else a small valid file made at generate time), or none.
import type { OperationFacts } from '@invoice-api/contract';
import { negotiatedMedia } from './accept.js';
import type { GenerationSchema, MediaAnswerFacts, MediaFacts, MswOperationFacts } from './answer-table.js';
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

/** What the handlers know of one operation: its table entry, its generated answers, the schemas. */
export interface OperationSource {
  readonly operationId: string;
  readonly facts: OperationFacts;
  readonly answers: MswOperationFacts;
  readonly schemas: Readonly<Record<string, GenerationSchema>>;
}

export interface ChosenAnswer {
  status: number;
  /** The media type answered, with how it is carried; undefined: the answer has no body. */
  media?: MediaFacts;
  /** JSON: any value; text: a string; bytes: a Uint8Array; undefined: no body. */
  body: unknown;
  headers: Record<string, string>;
}

export interface AnswerOptions {
  seed?: number;
  example?: string;
  dynamic?: boolean;
  /** The request's Accept header, to choose among a status's media types. */
  accept?: string | null;
}

/** The answer the operation gives with `status`, without a body of the caller's: an example, seeded data or a sample file. */
export function documentedAnswer(source: OperationSource, status: number, options: AnswerOptions): ChosenAnswer {
  const facts = source.answers.answers[String(status)];
  if (facts === undefined) throw new Error(`${source.operationId} documents no ${status} answer`);
  const media = negotiatedMedia(source.facts.responseMedia[String(status)] ?? [], options.accept ?? null);
  const headers = { ...facts.headers };
  if (media === undefined) return { status, body: undefined, headers };
  return { status, media, body: bodyOf(source, status, media, facts.media[media.mediaType] ?? { examples: {} }, options), headers };
}

function decodedBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
}

function bodyOf(source: OperationSource, status: number, media: MediaFacts, facts: MediaAnswerFacts, options: AnswerOptions): unknown {
  const named = options.example !== undefined && Object.hasOwn(facts.examples, options.example);
  const examples = Object.values(facts.examples);
  const example = named && options.example !== undefined ? facts.examples[options.example] : examples[0];
  const generated = !named && (options.dynamic === true || options.seed !== undefined || examples.length === 0);
  const seed = seedOf(`${options.seed ?? 1}:${source.operationId}:${status}`);
  switch (media.kind) {
    case 'bytes':
      // Never generated: random bytes would not be a valid file of the type. The example, else the sample file.
      if (typeof example === 'string') return new TextEncoder().encode(example);
      return facts.sample === undefined ? new Uint8Array(0) : decodedBase64(facts.sample);
    case 'text':
      if (!generated) return typeof example === 'string' ? example : JSON.stringify(example);
      return facts.schema === undefined ? '' : String(sampleValue(facts.schema, source.schemas, seed));
    default:
      if (!generated) return structuredClone(example);
      return facts.schema === undefined ? undefined : sampleValue(facts.schema, source.schemas, seed);
  }
}

function hasExample(facts: MswOperationFacts['answers'][string] | undefined, example: string): boolean {
  return Object.values(facts?.media ?? {}).some((media) => Object.hasOwn(media.examples, example));
}

/** The status and example a request's `Prefer` header asks for, among what the operation documents. */
export function preferredAnswer(source: OperationSource, request: Request, seed: number | undefined): ChosenAnswer | undefined {
  const wanted = preferences(request.headers.get('prefer'));
  if (!wanted.has('code') && !wanted.has('example') && !wanted.has('dynamic')) return undefined;
  const answers = source.answers.answers;
  const example = wanted.get('example');
  const code = wanted.get('code');
  // An example without a code: the first documented answer that has it, success first (the spec's order).
  const status = code ?? (example === undefined ? undefined : Object.keys(answers).find((candidate) => hasExample(answers[candidate], example)));
  const chosen = status === undefined ? source.facts.successStatus : Number(status);
  if (answers[String(chosen)] === undefined) return undefined;
  return documentedAnswer(source, chosen, {
    ...(seed === undefined ? {} : { seed }),
    ...(example === undefined ? {} : { example }),
    dynamic: wanted.get('dynamic') === 'true',
    accept: request.headers.get('accept'),
  });
}
