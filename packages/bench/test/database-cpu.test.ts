// The meter of PostgreSQL's CPU per request (src/database-cpu.ts) finds the benchmark database's
// backends by their process titles, which carry the server's cluster_name where it has one.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseCpuMeter, roleOf } from '../src/database-cpu.js';
import { createDatabaseIfMissing, databaseUrl, dropDatabase } from '../src/dataset/postgres-admin.js';

const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `bench_cpu_${process.pid}`;

describe('process titles', () => {
  it('reads a client backend and a parallel worker with and without a cluster name', () => {
    expect(roleOf('postgres: app bench 127.0.0.1(5123) idle', 'bench', '')).toEqual({ kind: 'backend' });
    expect(roleOf('postgres: 15/main: app bench 127.0.0.1(5123) SELECT', 'bench', '15/main')).toEqual({ kind: 'backend' });
    expect(roleOf('postgres: 15/main: app bench [local] idle', 'bench', '15/main')).toEqual({ kind: 'backend' });
    expect(roleOf('postgres: 15/main: parallel worker for PID 42', 'bench', '15/main')).toEqual({ kind: 'worker', leader: 42 });
  });

  it('leaves out other databases, cluster-wide processes and titles of another cluster', () => {
    expect(roleOf('postgres: 15/main: app other 127.0.0.1(5123) idle', 'bench', '15/main')).toBeUndefined();
    expect(roleOf('postgres: 15/main: checkpointer', 'bench', '15/main')).toBeUndefined();
    expect(roleOf('postgres: 15/main: app bench 127.0.0.1(5123) idle', 'bench', '')).toBeUndefined();
  });
});

describe('the meter on this machine', () => {
  let url: string;

  beforeAll(async () => {
    await createDatabaseIfMissing(serverUrl, databaseName);
    url = databaseUrl(serverUrl, databaseName);
  });

  afterAll(async () => {
    await dropDatabase(serverUrl, databaseName);
  });

  it("counts the CPU of the backends that ran a measurement's statements", async () => {
    const meter = await DatabaseCpuMeter.open(url);
    if (typeof meter === 'string') throw new Error(`the meter is unavailable here: ${meter}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { cost } = await meter.measure(
        async () => {
          for (let round = 0; round < 20; round += 1) await client.query('select count(*) from generate_series(1, 200000)');
          return 20;
        },
        (requests) => requests,
      );
      // 20 counts of 200,000 rows take well over a millisecond of a backend's CPU between them.
      expect(cost.cpuMsPerRequest).toBeGreaterThan(0.05);
    } finally {
      await client.end();
      await meter.close();
    }
  });
});
