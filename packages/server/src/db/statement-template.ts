// Statements built and compiled once, then run with each request's values. Building a query with
// Kysely and compiling it to SQL walks and freezes a tree of nodes every time; for a statement whose
// shape does not change (an invoice by id, a search with the same criteria and order) that work gives
// the same SQL text every time, and only its parameters differ. A template is compiled with
// placeholders where the values go, and remembers which parameter is which value; binding it is a copy
// of the parameter list. The values stay bound parameters, as in every other statement. Fixed
// statements are built on compile-only.ts's builder when their module loads (templateOf).
import { createQueryId, type CompiledQuery, type Compilable } from 'kysely';
import { customPlanMarker } from './prepared-statements.js';

/** Stands for the value at `position` of the list a template is later bound with. */
class Placeholder {
  constructor(readonly position: number) {}
}

/** `count` placeholders, for the values 0 to count - 1 of the list the template will be bound with. */
export function placeholders(count: number): unknown[] {
  return Array.from({ length: count }, (_, position) => new Placeholder(position));
}

/** Replaces every value of `parameters` with a placeholder for its position in the list, in order. */
export function withPlaceholders<T>(map: (parameters: T, each: (value: unknown) => unknown) => T, parameters: T): T {
  let position = 0;
  return map(parameters, () => new Placeholder(position++));
}

/** The values of `parameters` in the order `map` visits them: the list a template built by withPlaceholders binds. */
export function valuesOf<T>(map: (parameters: T, each: (value: unknown) => unknown) => T, parameters: T): unknown[] {
  const values: unknown[] = [];
  map(parameters, (value) => {
    values.push(value);
    return value;
  });
  return values;
}

export interface StatementTemplate<Row> {
  /** The statement with `values[n]` wherever placeholder n was built in. */
  bind(values: readonly unknown[]): CompiledQuery<Row>;
  /** How many values `bind` expects. */
  readonly valueCount: number;
}

export interface StatementTemplateOptions {
  /** The statement's best plan depends on its values: PostgreSQL plans it for them every time (prepared-statements.ts). */
  customPlan?: boolean;
}

/**
 * Compiles `query`, built with placeholders for `valueCount` values (placeholders() or
 * withPlaceholders()). Every parameter of the compiled statement must be a placeholder: a value bound
 * while building (a request's account id, say) would be kept in the template and sent with every
 * later request of that shape.
 */
export function statementTemplate<Row>(query: Compilable<Row>, valueCount: number, options: StatementTemplateOptions = {}): StatementTemplate<Row> {
  const compiled = query.compile();
  const text = options.customPlan === true ? `${compiled.sql}${customPlanMarker}` : compiled.sql;
  const positions = compiled.parameters.map((parameter, index) => {
    if (!(parameter instanceof Placeholder)) throw new Error(`A statement template's parameter ${index + 1} is a value, not a placeholder.`);
    if (parameter.position >= valueCount) throw new Error(`A statement template names a value beyond the ${valueCount} it is bound with.`);
    return parameter.position;
  });
  return {
    valueCount,
    bind(values) {
      if (values.length !== valueCount) throw new Error(`A statement template takes ${valueCount} values, not ${values.length}.`);
      const parameters = positions.map((position) => values[position]);
      return { sql: text, query: compiled.query, parameters, queryId: createQueryId() };
    },
  };
}

/** A fixed statement's template whose values are bound by name (templateOf). */
export interface NamedStatementTemplate<Name extends string, Row> {
  bind(values: Readonly<Record<Name, unknown>>): CompiledQuery<Row>;
}

/**
 * A template of one fixed statement: `build` gets a placeholder for each of `names`, builds the
 * statement with them (on compile-only.ts's builder), and the template is compiled once, here. Its
 * values are bound by name, not by position: two values of one type (a client's name and an invoice's
 * description) cannot trade places unnoticed, and leaving one out does not compile.
 */
export function templateOf<const Name extends string, Row>(
  names: readonly Name[],
  build: (values: Readonly<Record<Name, unknown>>) => Compilable<Row>,
): NamedStatementTemplate<Name, Row> {
  const slots = Object.fromEntries(placeholders(names.length).map((placeholder, position) => [names[position], placeholder])) as Record<Name, unknown>;
  const template = statementTemplate(build(slots), names.length);
  return { bind: (values) => template.bind(names.map((name) => values[name])) };
}

/**
 * Templates by shape, bounded: statements can take very many shapes (a search's criteria combine
 * freely), and a client sending a new shape each time must not grow memory. The shape used least
 * recently goes first.
 */
export class TemplateCache<Templates> {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  readonly #entries = new Map<string, Templates>();

  constructor(readonly maxEntries: number) {}

  /** The templates of `shape`, built by `build` when they are not kept (any more). */
  get(shape: string, build: () => Templates): Templates {
    const known = this.#entries.get(shape);
    if (known !== undefined) {
      this.#entries.delete(shape);
      this.#entries.set(shape, known);
      return known;
    }
    const built = build();
    this.#entries.set(shape, built);
    if (this.#entries.size > this.maxEntries) {
      const leastRecentlyUsed = this.#entries.keys().next();
      if (leastRecentlyUsed.done !== true) this.#entries.delete(leastRecentlyUsed.value);
    }
    return built;
  }

  get size(): number {
    return this.#entries.size;
  }
}
