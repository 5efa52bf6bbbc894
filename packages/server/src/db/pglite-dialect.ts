// A Kysely dialect over one PGlite instance. PGlite is a single PostgreSQL session, so the driver
// hands out that session to one holder at a time: a transaction keeps it from BEGIN to COMMIT and
// every other query waits, instead of interleaving its statements with the open transaction.
import type { PGlite } from '@electric-sql/pglite';
import { inSpan, inStatementSpan } from '../telemetry/spans.js';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // No instrumentation sees PGlite: its statements get the spans the pg instrumentation gives PostgreSQL's.
    const result = await inStatementSpan(compiledQuery.sql, () => this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]));
    return {
      rows: result.rows,
      ...(result.affectedRows === undefined ? {} : { numAffectedRows: BigInt(result.affectedRows) }),
    };
  }

  // Kysely's `.stream()`; nothing here streams, and PGlite has no cursors to stream with.
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite');
  }
}

/** Grants the single session to one holder at a time, in request order. */
export class SessionLock {
  private tail: Promise<void> = Promise.resolve();
  /** Holders waiting for the session (the PGlite counterpart of a pool's waiting clients; metrics). */
  waiting = 0;
  /** Whether someone holds the session now. */
  held = false;

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = () => {
        this.held = false;
        resolve();
      };
    });
    const previous = this.tail;
    this.tail = previous.then(() => released);
    this.waiting += 1;
    try {
      await previous;
    } finally {
      this.waiting -= 1;
    }
    this.held = true;
    return release;
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private releaseHeld: (() => void) | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly lock: SessionLock,
  ) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // Waiting for the one session is PGlite's counterpart of waiting for a pool connection, and can be
    // most of a request's time under load: a span of its own when there is a wait.
    const release = this.lock.held ? await inSpan('pglite.session.wait', {}, () => this.lock.acquire()) : await this.lock.acquire();
    this.releaseHeld = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let statement = 'begin';
    if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) statement += ` ${settings.accessMode}`;
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.releaseHeld;
    this.releaseHeld = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await closePglite(this.pglite, this.lock);
  }
}

/** Closes PGlite once the current holder of the session is done, so closing never cuts a transaction in half. */
async function closePglite(pglite: PGlite, lock: SessionLock): Promise<void> {
  const release = await lock.acquire();
  try {
    if (!pglite.closed) await pglite.close();
  } finally {
    release();
  }
}

export class PGliteDialect implements Dialect {
  /** The one session's queue, readable for metrics. */
  readonly session = new SessionLock();

  constructor(private readonly pglite: PGlite) {}

  /**
   * Closes PGlite. Kysely's `destroy()` reaches the driver only if a query ever initialised it, so a
   * caller that used PGlite directly (a backup's dump) would leave it open: its PostgreSQL timers
   * (the statistics flush re-arms itself every 10 s) would then keep the process alive for ever.
   */
  close(): Promise<void> {
    return closePglite(this.pglite, this.session);
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.session);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}
