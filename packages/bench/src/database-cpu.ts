// What PostgreSQL spends on a side's requests: the CPU time of the backends serving the benchmark
// database, read from the kernel, and, where the server has pg_stat_statements, what each statement
// cost (calls, rows, buffers, planning and execution time) per request.
//
// CPU: the postmaster's children are listed (/proc/<postmaster>/task/<postmaster>/children) and each
// one's process title says what it is: `postgres: <user> <database> <host>(<port>) <state>` for a
// client backend, `postgres: parallel worker for PID <leader>` for a parallel worker, each after the
// server's `cluster_name` where it has one (`postgres: 15/main: ...` on Debian's clusters). A
// measurement that found no backend of the database at all reports no figure rather than 0. A side's work
// is the CPU of every client backend of the benchmark database (but the meter's own connection) and
// of every parallel worker whose leader is one of them. The list is sampled when a measurement starts,
// every `intervalMs` while it runs and when it ends; each process's CPU is its last reading minus its
// first (0 for a process born during the measurement), so a backend that exits mid-measurement (a
// pool closing an idle connection, a parallel worker) is counted up to its last sample: at most one
// interval of its CPU is missed, and the measured sides keep their pool's connections open throughout
// (their warm-up opened them). Cluster-wide processes (checkpointer, WAL writer, autovacuum) are not
// counted: they serve every database of a shared server. The CPU is the scheduler's account
// (cpu-time.ts), in nanoseconds.
//
// Only where the benchmark runs on the database's machine (its /proc holds the backends): against a
// remote server the meter is unavailable and the report says so.
//
// Statements: pg_stat_statements' counters of the benchmark database are read before and after the
// measurement and subtracted by query id; nothing is reset, so other users of a shared server lose
// nothing. Available when the server preloads it (shared_preload_libraries) and the extension can be
// created in the database; planning time only with pg_stat_statements.track_planning on.
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { processCpuMs } from './cpu-time.js';

export interface StatementCost {
  /** The statement as pg_stat_statements normalised it (parameters as $n), whitespace collapsed. */
  query: string;
  /** Per request of the measurement. */
  callsPerRequest: number;
  rowsPerCall: number;
  /** Shared buffers found in (hit) and read into (read) the cache per call, planning included when tracked. */
  hitPerCall: number;
  readPerCall: number;
  /** Mean milliseconds per call; planning NaN unless track_planning is on. */
  execMsPerCall: number;
  planMsPerCall: number;
}

export interface DatabaseCost {
  /** CPU milliseconds of the database's backends per completed request; NaN when not measured. */
  cpuMsPerRequest: number;
  /** Each statement's cost per request, most called first; undefined without pg_stat_statements. */
  statements: StatementCost[] | undefined;
}

interface StatementCounters {
  query: string;
  calls: number;
  rows: number;
  hit: number;
  read: number;
  execMs: number;
  planMs: number;
}

const sampleIntervalMs = 50;

/**
 * What the process titled `title` is to the meter: a client backend of `database`, a parallel worker,
 * or neither. `clusterName` is the server's `cluster_name` setting ('' when unset), which PostgreSQL
 * writes into every title after `postgres: `.
 */
export function roleOf(title: string, database: string, clusterName: string): { kind: 'backend' } | { kind: 'worker'; leader: number } | undefined {
  const prefix = clusterName === '' ? 'postgres: ' : `postgres: ${clusterName}: `;
  if (!title.startsWith(prefix)) return undefined;
  const rest = title.slice(prefix.length);
  const worker = /^parallel worker for PID (\d+)/.exec(rest);
  if (worker !== null) return { kind: 'worker', leader: Number(worker[1]) };
  // `<user> <database> <host>(<port>) ...` or `[local]`: user and database are the first two words.
  const backend = /^(\S+) (\S+) (?:\S+\(\d+\)|\[local\])/.exec(rest);
  if (backend !== null && backend[2] === database) return { kind: 'backend' };
  return undefined;
}

async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text
    .split(' ')
    .filter((word) => word !== '')
    .map(Number);
}

async function titleOf(pid: number): Promise<string | undefined> {
  const text = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return text?.replaceAll('\u0000', ' ').trim();
}

export class DatabaseCpuMeter {
  readonly #client: pg.Client;
  readonly #postmaster: number;
  readonly #database: string;
  readonly #clusterName: string;
  readonly #ownBackend: number;
  readonly #statements: boolean;

  private constructor(client: pg.Client, postmaster: number, database: string, clusterName: string, ownBackend: number, statements: boolean) {
    this.#client = client;
    this.#postmaster = postmaster;
    this.#database = database;
    this.#clusterName = clusterName;
    this.#ownBackend = ownBackend;
    this.#statements = statements;
  }

  /**
   * A meter of the database at `url`, or the reason there is none (the server is on another machine,
   * or /proc is not readable). pg_stat_statements is created in the database when the server preloads it.
   */
  static async open(url: string): Promise<DatabaseCpuMeter | string> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number; database: string; cluster: string; preloaded: string }>(
        "select pg_backend_pid() as pid, current_database() as database, current_setting('cluster_name') as cluster, current_setting('shared_preload_libraries') as preloaded",
      );
      const { pid, database, cluster, preloaded } = rows[0]!;
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
      const parent = status === undefined ? undefined : /PPid:\s+(\d+)/.exec(status)?.[1];
      if (parent === undefined) {
        await client.end();
        return "PostgreSQL's backends are not processes of this machine (a remote server, or /proc hidden)";
      }
      let statements = false;
      if (/\bpg_stat_statements\b/.test(preloaded)) {
        statements = await client.query('create extension if not exists pg_stat_statements').then(
          () => true,
          () => false,
        );
      }
      return new DatabaseCpuMeter(client, Number(parent), database, cluster, pid, statements);
    } catch (error) {
      await client.end();
      throw error;
    }
  }

  /** True when the server has pg_stat_statements: measurements then list their statements. */
  get hasStatements(): boolean {
    return this.#statements;
  }

  /** CPU milliseconds so far of every process of the database's requests, by PID. */
  async #sample(): Promise<Map<number, number>> {
    const children = await childrenOf(this.#postmaster);
    const titles = await Promise.all(children.map(async (pid) => [pid, await titleOf(pid)] as const));
    const backends = new Set<number>();
    const workers: Array<[number, number]> = [];
    for (const [pid, title] of titles) {
      if (title === undefined || pid === this.#ownBackend) continue;
      const role = roleOf(title, this.#database, this.#clusterName);
      if (role?.kind === 'backend') backends.add(pid);
      else if (role?.kind === 'worker') workers.push([pid, role.leader]);
    }
    const counted = [...backends, ...workers.filter(([, leader]) => backends.has(leader)).map(([pid]) => pid)];
    const readings = await Promise.all(counted.map(async (pid) => [pid, await processCpuMs(pid)] as const));
    return new Map(readings.filter(([, ms]) => Number.isFinite(ms)));
  }

  async #counters(): Promise<Map<string, StatementCounters>> {
    if (!this.#statements) return new Map();
    const { rows } = await this.#client.query<{
      queryid: string;
      query: string;
      calls: string;
      rows: string;
      hit: string;
      read: string;
      exec_ms: number;
      plan_ms: number;
      plans: string;
    }>(
      `select queryid::text, query, calls, rows, shared_blks_hit as hit, shared_blks_read as read,
              total_exec_time as exec_ms, total_plan_time as plan_ms, plans
       from pg_stat_statements as s
       where dbid = (select oid from pg_database where datname = current_database())
         -- Statements the clients sent, not those run inside them (EXPLAIN's, a function's); the
         -- column exists from PostgreSQL 14 on.
         and to_jsonb(s) ->> 'toplevel' is distinct from 'false'`,
    );
    return new Map(
      rows.map((row) => [
        row.queryid,
        {
          query: row.query.replace(/\s+/g, ' ').trim(),
          calls: Number(row.calls),
          rows: Number(row.rows),
          hit: Number(row.hit),
          read: Number(row.read),
          execMs: row.exec_ms,
          // Planning is timed only with track_planning on: otherwise no call was planned as far as it knows.
          planMs: Number(row.plans) > 0 ? row.plan_ms : Number.NaN,
        },
      ]),
    );
  }

  /**
   * Runs `run` (a measurement; it returns how many requests it completed) and what the database
   * spent on it per request: its backends' CPU, and each statement's counters.
   */
  async measure<T>(run: () => Promise<T>, requestsOf: (result: T) => number): Promise<{ result: T; cost: DatabaseCost }> {
    const countersBefore = await this.#counters();
    const first = await this.#sample();
    const last = new Map(first);
    const firstSeen = new Map(first);
    let sampling = Promise.resolve();
    const tick = (): void => {
      sampling = sampling.then(async () => {
        for (const [pid, ms] of await this.#sample()) {
          if (!firstSeen.has(pid)) firstSeen.set(pid, 0);
          last.set(pid, ms);
        }
      });
    };
    const timer = setInterval(tick, sampleIntervalMs);
    let result: T;
    try {
      result = await run();
    } finally {
      clearInterval(timer);
      tick();
      await sampling;
    }
    const countersAfter = await this.#counters();
    const requests = requestsOf(result);
    let cpuMs = 0;
    for (const [pid, ms] of last) cpuMs += ms - (firstSeen.get(pid) ?? 0);
    const cost: DatabaseCost = {
      // No backend seen: the titles were not understood, and 0 would read as a database that did nothing.
      cpuMsPerRequest: requests > 0 && last.size > 0 ? cpuMs / requests : Number.NaN,
      statements: this.#statements ? statementCosts(countersBefore, countersAfter, requests) : undefined,
    };
    return { result, cost };
  }

  async close(): Promise<void> {
    await this.#client.end();
  }
}

/** The counters' growth between two readings, per request, for the statements the measurement ran. */
function statementCosts(before: Map<string, StatementCounters>, after: Map<string, StatementCounters>, requests: number): StatementCost[] {
  const costs: StatementCost[] = [];
  for (const [id, now] of after) {
    const then = before.get(id);
    const calls = now.calls - (then?.calls ?? 0);
    // The meter's own reading of pg_stat_statements is no request's statement.
    if (calls <= 0 || now.query.includes('pg_stat_statements')) continue;
    costs.push({
      query: now.query,
      callsPerRequest: calls / Math.max(1, requests),
      rowsPerCall: (now.rows - (then?.rows ?? 0)) / calls,
      hitPerCall: (now.hit - (then?.hit ?? 0)) / calls,
      readPerCall: (now.read - (then?.read ?? 0)) / calls,
      execMsPerCall: (now.execMs - (then?.execMs ?? 0)) / calls,
      planMsPerCall: (now.planMs - (then?.planMs ?? 0)) / calls,
    });
  }
  return costs.sort((a, b) => b.callsPerRequest - a.callsPerRequest || b.execMsPerCall - a.execMsPerCall);
}

/**
 * The statement costs of several measurements as one: calls per request over all their requests,
 * the per-call figures weighted by each measurement's calls. Statements are matched by their text.
 */
export function combineStatementCosts(measurements: ReadonlyArray<{ requests: number; statements: readonly StatementCost[] }>): StatementCost[] {
  const requests = measurements.reduce((sum, measurement) => sum + measurement.requests, 0);
  const byQuery = new Map<string, { calls: number; rows: number; hit: number; read: number; execMs: number; planMs: number }>();
  for (const measurement of measurements) {
    for (const cost of measurement.statements) {
      const calls = cost.callsPerRequest * measurement.requests;
      const sum = byQuery.get(cost.query) ?? { calls: 0, rows: 0, hit: 0, read: 0, execMs: 0, planMs: 0 };
      sum.calls += calls;
      sum.rows += cost.rowsPerCall * calls;
      sum.hit += cost.hitPerCall * calls;
      sum.read += cost.readPerCall * calls;
      sum.execMs += cost.execMsPerCall * calls;
      sum.planMs += cost.planMsPerCall * calls;
      byQuery.set(cost.query, sum);
    }
  }
  return [...byQuery]
    .map(([query, sum]) => ({
      query,
      callsPerRequest: sum.calls / Math.max(1, requests),
      rowsPerCall: sum.rows / sum.calls,
      hitPerCall: sum.hit / sum.calls,
      readPerCall: sum.read / sum.calls,
      execMsPerCall: sum.execMs / sum.calls,
      planMsPerCall: sum.planMs / sum.calls,
    }))
    .sort((a, b) => b.callsPerRequest - a.callsPerRequest || b.execMsPerCall - a.execMsPerCall);
}
