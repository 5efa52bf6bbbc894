// The loader's one way to run SQL, on either engine: the server's own Kysely handle (so type parsers,
// time zone and extensions are exactly the service's), with raw text and positional parameters.
import { CompiledQuery } from 'kysely';
import type { Database } from '../server-modules.js';

export type Row = Record<string, unknown>;

export interface SqlRunner {
  query<R extends Row = Row>(text: string, parameters?: readonly unknown[]): Promise<R[]>;
}

export function sqlRunner(database: Database): SqlRunner {
  return {
    async query<R extends Row>(text: string, parameters: readonly unknown[] = []): Promise<R[]> {
      const result = await database.db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]));
      return result.rows;
    },
  };
}
