// The database's limit for a scenario: the service's statements (a search's page with its total, or page then count) run back to back
// from a tight loop on N concurrent pg connections, with no HTTP and no JSON in between.
import pg from 'pg';
import { figuresFromLatencies, type Figures, type Measure } from './figures.js';
import type { Statement } from './service-sql.js';

export interface RawSqlOptions {
  url: string;
  connections: number;
  measure: Measure;
}

/** Runs `statements` in order per iteration; one iteration is one "request". */
export async function runRawSql(statements: readonly Statement[], options: RawSqlOptions): Promise<Figures> {
  const clients = Array.from({ length: options.connections }, () => new pg.Client({ connectionString: options.url, options: '-c TimeZone=UTC' }));
  await Promise.all(clients.map((client) => client.connect()));
  try {
    // One untimed iteration per connection: parse, plan and page in, like the HTTP runs' warm-up.
    await Promise.all(clients.map((client) => runOnce(client, statements)));
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    const deadline = 'seconds' in options.measure ? started + options.measure.seconds * 1000 : Number.POSITIVE_INFINITY;
    let remaining = 'requests' in options.measure ? options.measure.requests : Number.POSITIVE_INFINITY;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < deadline && remaining > 0) {
          remaining -= 1;
          const begin = performance.now();
          try {
            await runOnce(client, statements);
            latencies.push(performance.now() - begin);
          } catch {
            errors += 1;
          }
        }
      }),
    );
    return figuresFromLatencies(latencies, performance.now() - started, errors);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

async function runOnce(client: pg.Client, statements: readonly Statement[]): Promise<void> {
  for (const statement of statements) await client.query(statement.text, statement.values);
}

/** Median of `runs` single-client executions: one statement's own latency, without queueing. */
export async function medianLatency(url: string, statement: Statement, runs: number): Promise<number> {
  const client = new pg.Client({ connectionString: url, options: '-c TimeZone=UTC' });
  await client.connect();
  try {
    await client.query(statement.text, statement.values);
    const samples: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const begin = performance.now();
      await client.query(statement.text, statement.values);
      samples.push(performance.now() - begin);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
  } finally {
    await client.end();
  }
}

/**
 * The same loop on one in-process session (PGlite has exactly one): statements run back to back,
 * one iteration at a time.
 */
export async function runRawSqlOneSession(
  execute: (statement: Statement) => Promise<unknown>,
  statements: readonly Statement[],
  measure: Measure,
): Promise<Figures> {
  for (const statement of statements) await execute(statement);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = 'seconds' in measure ? started + measure.seconds * 1000 : Number.POSITIVE_INFINITY;
  let remaining = 'requests' in measure ? measure.requests : Number.POSITIVE_INFINITY;
  while (performance.now() < deadline && remaining > 0) {
    remaining -= 1;
    const begin = performance.now();
    try {
      for (const statement of statements) await execute(statement);
      latencies.push(performance.now() - begin);
    } catch {
      errors += 1;
    }
  }
  return figuresFromLatencies(latencies, performance.now() - started, errors);
}
