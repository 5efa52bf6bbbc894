// Opens the service's database on one of two engines behind the same typed Kysely handle:
// PGlite (PostgreSQL in WebAssembly, in memory or in a directory) for development and tests without
// a server, node-postgres for a real PostgreSQL. Both get the same type parsers (type-parsers.ts),
// the same UTC session time zone and the pg_trgm extension, so the same SQL behaves the same.
// A PGlite data directory is held by one process at a time (single-writer-lock.ts).
import { mkdir, realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { eachPostgresRow, type RowHandler } from './each-row.js';
import { templateFor } from './pglite-cluster-template.js';
import { PGliteDialect } from './pglite-dialect.js';
import { kyselyPool } from './kysely-pool.js';
import { defaultMaxNamedStatements, StatementNames } from './prepared-statements.js';
import type { DatabaseSchema } from './schema.js';
import { acquireSingleWriterLock, type SingleWriterLock } from './single-writer-lock.js';
import { typeParsers } from './type-parsers.js';

export type { DatabaseSchema } from './schema.js';
export { DataDirectoryInUseError } from './single-writer-lock.js';

/** How busy the connections are, read when metrics are scraped (runtime/metrics.ts). */
export interface PoolStats {
  /** Connections allowed: DATABASE_POOL_SIZE on PostgreSQL, 1 on PGlite (one session). */
  max: number;
  /** Connections open now, idle or in use. */
  open: number;
  idle: number;
  /** Queries (or transactions) waiting for a connection. */
  waiting: number;
}

export interface Database {
  readonly engine: 'pglite' | 'postgres';
  readonly db: Kysely<DatabaseSchema>;
  poolStats(): PoolStats;
  /**
   * Runs `query`, handing each row to `onRow` and keeping none (each-row.ts); resolves with the row
   * count. On PostgreSQL each row as it arrives; PGlite answers a statement whole, so there it walks
   * the answer's rows.
   */
  eachRow<Row>(query: CompiledQuery<Row>, onRow: RowHandler<Row>): Promise<number>;
  /** True when a trivial query answers within about 2 s; never throws. */
  ping(): Promise<boolean>;
  /**
   * PGlite only: the whole data directory as a gzipped tarball (PGlite's `dumpDataDir`), which
   * `loadDataDir` (db:restore) starts from. Taken while holding the one session after a CHECKPOINT,
   * so no statement runs in between and the files are a consistent, fully written cluster.
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Absent or empty: PGlite in `dataDir`; `memory:`: PGlite in memory; `postgres(ql)://…`: a pool. */
  url?: string;
  /** PGlite data directory; default `.data/pglite` at the repository root. */
  dataDir?: string;
  /** Maximum pool connections on PostgreSQL (default 10). Ignored by PGlite, which is one session. */
  poolSize?: number;
  /** PostgreSQL only: name statements so that each is parsed and planned once per connection (default on). */
  preparedStatements?: boolean;
  /**
   * PGlite only: start from this dumped data directory (`dumpDataDir()`), as db:restore does. Without
   * it, a new cluster starts from the fresh-cluster template (pglite-cluster-template.ts).
   */
  pgliteDataDirDump?: Blob;
}

/** `.data/pglite` at the repository root (this file is packages/server/src/db/database.ts). */
export const defaultPgliteDataDir = fileURLToPath(new URL('../../../../.data/pglite', import.meta.url));

const pingTimeoutMs = 2_000;
/** A dead or unreachable server must fail a request quickly (503), not hang it. */
const connectTimeoutMs = 3_000;

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const url = options.url?.trim() ?? '';
  if (url === '' || url === 'memory:') {
    return openPglite(url === 'memory:' ? undefined : (options.dataDir ?? defaultPgliteDataDir), options.pgliteDataDirDump);
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return openPostgres(url, options.poolSize ?? 10, options.preparedStatements ?? true);
  }
  // Never echo the URL: it may carry a password.
  throw new Error('DATABASE_URL must be empty, "memory:", or start with postgres:// or postgresql://');
}

async function openPglite(dataDir: string | undefined, dump: Blob | undefined): Promise<Database> {
  // In memory, nothing is shared: no lock. A directory is claimed before PGlite touches it, so a
  // second process never gets as far as reading (or recovering) a directory another one writes.
  let lock: SingleWriterLock | undefined;
  if (dataDir !== undefined) {
    await mkdir(dataDir, { recursive: true });
    lock = await acquireSingleWriterLock(await realpath(dataDir));
  }
  try {
    // A new cluster is copied from the template rather than made by initdb (pglite-cluster-template.ts).
    dump ??= await templateFor(dataDir);
    const pglite = await PGlite.create({
      ...(dataDir === undefined ? {} : { dataDir }),
      ...(dump === undefined ? {} : { loadDataDir: dump }),
      extensions: { pg_trgm },
      parsers: typeParsers,
    });
    await pglite.exec(`SET TIME ZONE 'UTC'`);
    const dialect = new PGliteDialect(pglite);
    const db = new Kysely<DatabaseSchema>({ dialect });
    const { session } = dialect;
    const poolStats = () => ({ max: 1, open: 1, idle: session.held ? 0 : 1, waiting: session.waiting });
    const database = wrap('pglite', db, poolStats, { closeEngine: () => dialect.close(), lock });
    return {
      ...database,
      async dumpDataDir() {
        const release = await session.acquire();
        try {
          await pglite.exec('checkpoint');
          return await pglite.dumpDataDir('gzip');
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

function openPostgres(connectionString: string, poolSize: number, preparedStatements: boolean): Database {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    // Every session in UTC, so timestamptz text and ::date casts do not depend on the server's zone.
    options: '-c TimeZone=UTC',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        const parser = typeParsers[oid];
        return parser ?? pg.types.getTypeParser(oid, format ?? 'text');
      }) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client whose server went away emits 'error' on the pool; without a listener Node would
  // treat it as unhandled and stop the process. The next query simply gets a new connection.
  pool.on('error', () => undefined);
  // A client checked out by a query has no pool listener: when its connection dies mid-request it
  // emits 'error' on itself, which would stop the process. The query itself still rejects (-> 503).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const names = preparedStatements ? new StatementNames(defaultMaxNamedStatements) : undefined;
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: kyselyPool(pool, names) }) });
  return {
    ...wrap('postgres', db, () => ({ max: poolSize, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount })),
    eachRow: (query, onRow) => eachPostgresRow(pool, names, query, onRow),
  };
}

interface EngineHandles {
  /** Closes what Kysely's destroy may not reach (PGlite, when no query went through Kysely). */
  closeEngine?: () => Promise<void>;
  /** The data directory's lock, released once the engine has closed. */
  lock?: SingleWriterLock;
}

function wrap(engine: Database['engine'], db: Kysely<DatabaseSchema>, poolStats: () => PoolStats, { closeEngine, lock }: EngineHandles = {}): Database {
  let closed = false;
  return {
    engine,
    db,
    poolStats,
    async eachRow(query, onRow) {
      const { rows } = await db.executeQuery(query);
      for (const row of rows) onRow(row);
      return rows.length;
    },
    async ping() {
      if (closed) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), pingTimeoutMs);
      });
      const query = sql<{ ok: number }>`select 1 as ok`
        .execute(db)
        .then((result) => result.rows[0]?.ok === 1)
        .catch(() => false);
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      await closeEngine?.();
      // Released only once PGlite has closed (and checkpointed), so the next holder starts clean; if
      // closing failed, the lock stays until this process exits.
      await lock?.release();
    },
  };
}

/** Error codes of a socket that could not connect or was cut. */
const networkErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** SQLSTATEs that mean "the server is not there for you right now", not "your query is wrong". */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now
    code === '53300' // too_many_connections
  );
}

/** Messages node-postgres and PGlite use for a lost or unobtainable connection (they carry no code). */
const unavailableMessages = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /connection (?:is )?closed/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /pglite is closed/i,
  /driver has already been destroyed/i,
];

/**
 * True when `error` says the database cannot be reached (refused, reset, terminated, pool timeout,
 * server shutting down): the HTTP layer answers 503 then, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return isUnavailable(error, 0);
}

function isUnavailable(error: unknown, depth: number): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (networkErrorCodes.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))) return true;
  if (typeof message === 'string' && unavailableMessages.some((pattern) => pattern.test(message))) return true;
  // Node reports a refused connection to `localhost` (IPv4 and IPv6 tried) as an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isUnavailable(inner, depth + 1))) return true;
  return cause !== undefined && isUnavailable(cause, depth + 1);
}
