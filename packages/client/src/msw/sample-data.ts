// Data generated from a schema with a seed: the same seed gives the same data on every run and in
// every environment (a small PRNG, no Math.random), and the data is valid against the spec (the
// strict schemas; test/msw/answers.test.ts checks it with the generated response validators).
// Strings with a pattern come from the schema's examples or the pattern's plan, both prepared at
// generate time; dates, timestamps, e-mails and the spec's decimal formats are written to match.
import type { GenerationSchema } from './answer-table.js';

/** A seeded generator of numbers in [0, 1): mulberry32. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from a text (FNV-1a), so each operation and status draws its own sequence. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}

const words = ['alpha', 'delivery', 'invoice', 'consulting', 'service', 'support', 'hardware', 'licence', 'travel', 'design'];
/** Arrays are kept short: a page of a few rows reads better in a test than the spec's maximum. */
const extraItems = 3;
/** Dates fall within these years, which every date schema of the spec admits. */
const firstYear = 2024;
const years = 3;

class Sampler {
  constructor(
    private readonly random: () => number,
    private readonly definitions: Readonly<Record<string, GenerationSchema>>,
  ) {}

  integer(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(values: readonly T[]): T {
    return values[this.integer(0, values.length - 1)] as T;
  }

  value(schema: GenerationSchema, depth = 0): unknown {
    if (depth > 32) throw new Error('sample data: the schema nests deeper than 32 levels');
    if (schema.$ref !== undefined) {
      const target = this.definitions[schema.$ref];
      if (target === undefined) throw new Error(`sample data: no schema named ${schema.$ref}`);
      return this.value(target, depth + 1);
    }
    if (schema.const !== undefined) return schema.const;
    if (schema.enum !== undefined) return this.pick(schema.enum);
    if (schema.allOf !== undefined) return this.merged(schema.allOf, depth);
    const branches = schema.oneOf ?? schema.anyOf;
    if (branches !== undefined) return this.value(this.pick(branches), depth + 1);
    const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
    // `null` only where it is the one type: an optional value is better shown present.
    const type = types.find((candidate) => candidate !== 'null') ?? types[0];
    switch (type) {
      case 'object':
        return this.object(schema, depth);
      case 'array':
        return this.array(schema, depth);
      case 'string':
        return this.string(schema);
      case 'integer':
        return this.number(schema, 0);
      case 'number':
        return this.number(schema, decimalsOf(schema.format));
      case 'boolean':
        return this.random() < 0.5;
      case 'null':
        return null;
      default:
        return schema.properties === undefined ? null : this.object(schema, depth);
    }
  }

  private merged(schemas: readonly GenerationSchema[], depth: number): unknown {
    return Object.assign({}, ...schemas.map((schema) => this.value(schema, depth + 1)));
  }

  private object(schema: GenerationSchema, depth: number): Record<string, unknown> {
    const required = new Set(schema.required ?? []);
    const result: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (required.has(name) || this.random() < 0.7) result[name] = this.value(property, depth + 1);
    }
    return result;
  }

  private array(schema: GenerationSchema, depth: number): unknown[] {
    const min = schema.minItems ?? 0;
    const max = Math.min(schema.maxItems ?? Number.POSITIVE_INFINITY, Math.max(min, 1) + extraItems);
    const length = this.integer(Math.max(min, Math.min(1, max)), max);
    return Array.from({ length }, () => (schema.items === undefined ? null : this.value(schema.items, depth + 1)));
  }

  private string(schema: GenerationSchema): string {
    if (schema.samples !== undefined && schema.samples.length > 0) return this.pick(schema.samples);
    if (schema.patternPlan !== undefined) {
      return schema.patternPlan
        .map((step) => Array.from({ length: this.integer(step.min, step.max) }, () => step.chars.charAt(this.integer(0, step.chars.length - 1))).join(''))
        .join('');
    }
    switch (schema.format) {
      case 'date':
        return this.date();
      case 'date-time':
        return `${this.date()}T${two(this.integer(0, 23))}:${two(this.integer(0, 59))}:${two(this.integer(0, 59))}Z`;
      case 'email':
        return `${this.pick(words)}.${this.integer(1, 999)}@example.com`;
      default:
        return this.text(schema.minLength ?? 0, schema.maxLength ?? 40);
    }
  }

  private date(): string {
    const year = firstYear + this.integer(0, years - 1);
    // Day 1 to 28 exists in every month.
    return `${year}-${two(this.integer(1, 12))}-${two(this.integer(1, 28))}`;
  }

  private text(minLength: number, maxLength: number): string {
    let text = this.pick(words);
    while (text.length < minLength) text += ` ${this.pick(words)}`;
    return text.slice(0, Math.max(minLength, Math.min(maxLength, text.length)));
  }

  private number(schema: GenerationSchema, decimals: number): number {
    const step = 10 ** -decimals;
    const low = Math.max(schema.minimum ?? 1, schema.exclusiveMinimum === undefined ? Number.NEGATIVE_INFINITY : schema.exclusiveMinimum + step);
    const high = Math.min(
      schema.maximum ?? Math.max(low, 0) + 10_000,
      schema.exclusiveMaximum === undefined ? Number.POSITIVE_INFINITY : schema.exclusiveMaximum - step,
    );
    const scale = 10 ** decimals;
    const units = this.integer(Math.ceil(low * scale), Math.floor(Math.min(high, low + 10_000) * scale));
    return Number((units / scale).toFixed(decimals));
  }
}

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/** Decimal places a number of this format may have: the spec's `decimal2` to `decimal4`; 2 otherwise. */
function decimalsOf(format: string | undefined): number {
  const places = /^decimal(\d)$/.exec(format ?? '')?.[1];
  return places === undefined ? 2 : Number(places);
}

/** A value of `schema`, the same for the same seed. */
export function sampleValue(schema: GenerationSchema, definitions: Readonly<Record<string, GenerationSchema>>, seed: number): unknown {
  return new Sampler(seededRandom(seed), definitions).value(schema);
}
