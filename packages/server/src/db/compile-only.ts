// A Kysely that builds and compiles statements and never runs one: the builder of statement templates
// (statement-template.ts), which are compiled once per process at import and bound per request.
// Compiling does not need a connection, and both engines compile alike: PGlite's dialect
// (pglite-dialect.ts) uses Kysely's PostgreSQL adapter and compiler, as node-postgres's does, so a
// template compiled here runs unchanged on either, inside a transaction or not.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type DatabaseConnection,
  type RawBuilder,
} from 'kysely';
import type { DatabaseSchema } from './schema.js';

/** Refuses to run anything: a statement run on this builder would otherwise answer no rows, silently. */
class CompileOnlyDriver extends DummyDriver {
  override acquireConnection(): Promise<DatabaseConnection> {
    return Promise.reject(new Error("compile-only.ts's builder compiles statements; run them on the database's Kysely (executeQuery)."));
  }
}

export const compileOnly = new Kysely<DatabaseSchema>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new CompileOnlyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A raw `sql` statement as something a template compiles (a raw statement compiles against a builder). */
export function rawStatement<Row>(statement: RawBuilder<Row>): Compilable<Row> {
  return { compile: () => statement.compile(compileOnly) };
}
