// Named prepared statements on PostgreSQL. node-postgres sends every statement unnamed unless the
// query names it: PostgreSQL then parses, analyses and plans it again for every request, which for
// the service's short statements (an invoice by id, a search page) is most of the database's work.
// Named, a statement is parsed once per connection; PostgreSQL keeps its plan and, after five custom
// plans, uses a generic one where that costs no more (plan_cache_mode = auto).
//
// The statements' texts come from templates (statement-template.ts), so the same shape always has
// the same text and its values are parameters. Names are bounded all the same: a client sending a
// new search shape on every request must not grow every connection's memory on the server, so past
// `maxNamed` texts a statement runs unnamed, as it did before. A pooler in transaction mode (PgBouncer)
// cannot carry named statements from one transaction to the next: DATABASE_PREPARED_STATEMENTS=off.

/**
 * Ends the text of a statement whose best plan depends on its values (a deep offset, a `like`
 * pattern, a range): such a statement runs unnamed, so that PostgreSQL plans it for its values every
 * time. Named, after five custom plans PostgreSQL may keep a generic plan made without the values
 * (plan_cache_mode = auto): a page at offset 900,000 went from 45 to 200 ms, a `like` search of a
 * common word from 150 to 450 ms. A comment, so the statement is the same to the database; at the
 * end, so that a statement's first word still names its spans (SELECT).
 */
export const customPlanMarker = ' /* custom plan */';

/** How many distinct statement texts are named by default: every fixed statement and the common search shapes. */
export const defaultMaxNamedStatements = 500;

/** Gives each statement text with parameters a name, the first `maxNamed` texts seen. */
export class StatementNames {
  readonly #names = new Map<string, string>();

  constructor(readonly maxNamed: number) {}

  /** The statement's name, or undefined when it runs unnamed (no parameters, or past the bound). */
  nameOf(text: string, parameterCount: number): string | undefined {
    // A statement without parameters (begin, commit, set) gains nothing from a name; one planned for its values must not have one.
    if (parameterCount === 0 || text.endsWith(customPlanMarker)) return undefined;
    const known = this.#names.get(text);
    if (known !== undefined || this.#names.size >= this.maxNamed) return known;
    // Led by the statement's command, as an unnamed one's span is (`pg.query:SELECT#3 <database>`):
    // the pg instrumentation names a named statement's span by its name.
    const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'STATEMENT';
    const name = `${command}#${this.#names.size + 1}`;
    this.#names.set(text, name);
    return name;
  }

  get size(): number {
    return this.#names.size;
  }
}
