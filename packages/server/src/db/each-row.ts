// A statement's rows handed over one at a time as they arrive, none kept (Database.eachRow), for a
// reader that turns each row into something else at once: the CSV export. node-postgres keeps every
// row of a result in an array until the statement completes; a million exported rows read that way
// survived the young generation's collections in bulk and were promoted to the old one, which then
// grew by about 100 MiB before a full collection took it back. Handed over and dropped, a row dies
// young and the old generation does not grow.
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { inStatementSpan } from '../telemetry/spans.js';
import type { StatementNames } from './prepared-statements.js';

/** Receives each row; what it returns is ignored, and a row is not looked at again after it returns. */
export type RowHandler<Row> = (row: Row) => void;

/**
 * Runs `query` on a connection of `pool`, calling `onRow` for each row as node-postgres parses it
 * (a `pg.Query` with a `row` listener and no callback accumulates nothing). Named as the pool's other
 * statements are (`names`), so a batch statement run again is not parsed again. Resolves with the row
 * count once the statement completed; rejects with the database's error (and calls `onRow` no more).
 * An exception thrown by `onRow` fails the statement the same way once the rows already sent are read.
 * Traced by a span of its own, named as the pg instrumentation names a statement: the instrumentation
 * ends its spans when a result or callback arrives, and a statement read row by row has neither.
 */
export async function eachPostgresRow<Row>(
  pool: pg.Pool,
  names: StatementNames | undefined,
  query: CompiledQuery<Row>,
  onRow: RowHandler<Row>,
): Promise<number> {
  const client = await pool.connect();
  const values = [...query.parameters];
  const name = names?.nameOf(query.sql, values.length);
  const statement = new pg.Query(name === undefined ? { text: query.sql, values } : { name, text: query.sql, values });
  const spanName = (operation: string) => `pg.query:${name ?? operation} ${client.database ?? ''}`.trimEnd();
  let connectionError: Error | undefined;
  try {
    return await inStatementSpan(
      query.sql,
      () =>
        new Promise<number>((resolve, reject) => {
          let rows = 0;
          let handlerError: unknown;
          statement.on('row', (row: Row) => {
            if (handlerError !== undefined) return;
            try {
              onRow(row);
              rows += 1;
            } catch (error) {
              handlerError = error;
            }
          });
          statement.on('error', (error: Error) => {
            // An error the server reported leaves the connection ready for the next statement; any
            // other (the connection cut mid-statement) may not, and it is not given back for reuse.
            if (!(error instanceof pg.DatabaseError)) connectionError = error;
            reject(error);
          });
          statement.on('end', () => (handlerError === undefined ? resolve(rows) : reject(handlerError)));
          client.query(statement);
        }),
      spanName,
    );
  } finally {
    client.release(connectionError);
  }
}
