// The pg pool as Kysely is given it. Two things Kysely's own use of a pg pool would cost on every
// query:
// - Kysely keeps one connection object per client object it is given (a WeakMap in its driver): a
//   wrapper made anew at each checkout would make it build a connection object and two weak-table
//   entries per query, so each pooled connection keeps one wrapper.
// - Kysely calls pg's promise form of `client.query`. With that form every result's rows outlive
//   the young-generation collections and are promoted to the old one, which only a full collection
//   frees; with pg's callback form they die young (why the promise form does it was not found; the
//   figures are in the bench's RESULTS.md, "The collector's share of the search"). The wrapper sends
//   every query through the callback form and makes the promise itself.
// Statements are named here too where prepared-statements.ts gives them a name.
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import type { StatementNames } from './prepared-statements.js';

type KyselyQuery = PostgresPoolClient['query'];

function kyselyClient(client: pg.PoolClient, names: StatementNames | undefined): PostgresPoolClient {
  const query = ((textOrCursor: unknown, parameters?: ReadonlyArray<unknown>) => {
    // A cursor (Kysely's stream) goes through as it is.
    if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable);
    const values = parameters === undefined ? [] : [...parameters];
    const name = names?.nameOf(textOrCursor, values.length);
    const config: pg.QueryConfig = name === undefined ? { text: textOrCursor, values } : { name, text: textOrCursor, values };
    return new Promise<PostgresQueryResult<unknown>>((resolve, reject) => {
      client.query(config, (error: Error | null | undefined, result: pg.QueryResult) => {
        if (error) reject(error);
        else resolve(result as PostgresQueryResult<unknown>);
      });
    });
  }) as KyselyQuery;
  // pg-pool sets `release` on the client at each checkout: looked up when called, not kept.
  return { query, release: () => client.release() };
}

/** `pool` for Kysely: one wrapper per connection, queries in pg's callback form, named as `names` says (none: unnamed). */
export function kyselyPool(pool: pg.Pool, names: StatementNames | undefined): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = kyselyClient(client, names);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
