// SIGTERM while eight keep-alive clients search without pause, as a load balancer's pooled connections
// do during a deploy: repeated shutdowns on each engine, and not one request that was sent is reset.
// Once the service has the signal every answer says `Connection: close` (checked from the moment its
// 'shutting down' line is seen), so a client never reuses a connection the server is about to close; a connection refused outright (nothing was sent on it) is the one failure
// a client may see, and it can retry that elsewhere.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { createTestPostgres, type TestPostgres } from './support/postgres.js';
import { migrate, openDatabase, seedIfEmpty } from './support/server-modules.js';
import { startService, type ServiceProcess } from './support/service.js';
import { token } from './support/tokens.js';

const clientCount = 8;
// Four per engine: each shutdown races eight clients' requests anew, and each one catches a request in
// flight on (nearly) every client, so the bound below (at least one per shutdown) holds with a wide
// margin; every further shutdown is a whole service start more and proves nothing new.
const shutdownsPerEngine = 4;
/**
 * Each client has had this many answers on its kept-alive connection before the signal: one makes the
 * connection a kept-alive one, a second shows it really carries requests back to back. The service
 * compiles its validators before it listens, so no longer warm-up is needed for the load to be steady.
 */
const answersBeforeSignal = 2;
const searchBody = JSON.stringify({ limit: 20, criteria: [{ field: 'status', operator: '=', value: 'paid' }] });

interface Outcome {
  /** The answer's status, or the socket error's code. */
  result: number | string;
  /** The request went out on a connection that had already carried an answer. */
  reusedConnection: boolean;
  /** The answer's `Connection` header. */
  connection: string | undefined;
  /**
   * The request was sent once the server was closing: another answer had already said `Connection:
   * close`, or the service had already logged that it is shutting down.
   */
  sentWhileClosing: boolean;
}

interface Tally {
  answered: number;
  /** Answers saying `Connection: close` on a kept-alive connection: the requests the shutdown caught in flight. */
  closedKeptAlive: number;
  refused: number;
  /** Requests that were sent (or being sent) and got no answer: resets, hang-ups, broken pipes. */
  lost: Outcome[];
  /** Answers to requests sent while closing that did not say `Connection: close`. */
  keptOpenWhileClosing: Outcome[];
}

function search(agent: http.Agent, url: string, bearer: string, sentWhileClosing: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = http.request(
      `${url}/api/v1/invoices/search`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(searchBody) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ result: response.statusCode ?? 0, reusedConnection: request.reusedSocket, connection: response.headers.connection, sentWhileClosing }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ result: error.code ?? error.message, reusedConnection: request.reusedSocket, connection: undefined, sentWhileClosing }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ result: error.code ?? error.message, reusedConnection: request.reusedSocket, connection: undefined, sentWhileClosing }),
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer within 30 s')));
    request.end(searchBody);
  });
}

/** Starts a service, loads it with the clients, sends SIGTERM once each client is warm, and tallies every request. */
async function shutDownUnderLoad(env: Record<string, string>, bearer: string): Promise<Tally & { exitCode: number | string | null }> {
  const service: ServiceProcess = await startService(env, { startTimeoutMs: 60_000 });
  const outcomes: Outcome[] = [];
  let closingSeen = false;
  // The service logs 'shutting down' when it handles the signal; seeing the line (possibly later than it
  // was written) proves that a request sent afterwards reached a closing server.
  const shutdownLogged = (): boolean => (closingSeen ||= service.logs().some((line) => line.includes('shutting down')));
  let exited = false;
  void service.exited.then(() => (exited = true));
  let warmClients = 0;
  let allWarm: () => void = () => undefined;
  const warm = new Promise<void>((resolve) => (allWarm = resolve));

  const clients = Array.from({ length: clientCount }, async () => {
    // One connection per client, kept alive between requests, like one pooled upstream connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let answers = 0;
    try {
      while (!exited) {
        const outcome = await search(agent, service.url, bearer, shutdownLogged());
        outcomes.push(outcome);
        if (outcome.connection === 'close') closingSeen = true;
        if (typeof outcome.result === 'number' && ++answers === answersBeforeSignal && ++warmClients === clientCount) allWarm();
        // The listener is closed: the service is gone for this client.
        if (outcome.result === 'ECONNREFUSED') break;
      }
    } finally {
      agent.destroy();
    }
  });
  await warm;
  service.child.kill('SIGTERM');
  const exitCode = await service.exited;
  await Promise.all(clients);

  const answered = outcomes.filter((outcome) => typeof outcome.result === 'number');
  return {
    exitCode,
    answered: answered.length,
    closedKeptAlive: answered.filter((outcome) => outcome.reusedConnection && outcome.connection === 'close').length,
    refused: outcomes.filter((outcome) => outcome.result === 'ECONNREFUSED').length,
    lost: outcomes.filter((outcome) => typeof outcome.result === 'string' && outcome.result !== 'ECONNREFUSED'),
    keptOpenWhileClosing: answered.filter((outcome) => outcome.sentWhileClosing && outcome.connection !== 'close'),
  };
}

async function runShutdowns(expect: ExpectStatic, engine: string, env: Record<string, string>): Promise<void> {
  const bearer = await token();
  const totals = {
    answered: 0,
    closedKeptAlive: 0,
    refused: 0,
    lost: [] as Outcome[],
    keptOpenWhileClosing: [] as Outcome[],
    badExits: [] as Array<number | string | null>,
  };
  for (let run = 0; run < shutdownsPerEngine; run += 1) {
    const tally = await shutDownUnderLoad(env, bearer);
    totals.answered += tally.answered;
    totals.closedKeptAlive += tally.closedKeptAlive;
    totals.refused += tally.refused;
    totals.lost.push(...tally.lost);
    totals.keptOpenWhileClosing.push(...tally.keptOpenWhileClosing);
    if (tally.exitCode !== 0) totals.badExits.push(tally.exitCode);
  }
  const summary =
    `${engine}: ${shutdownsPerEngine} shutdowns with ${clientCount} keep-alive clients: ${totals.answered} answered ` +
    `(${totals.closedKeptAlive} of them on kept-alive connections with Connection: close), ${totals.refused} connections refused, ${totals.lost.length} requests lost ` +
    `${JSON.stringify(totals.lost.slice(0, 5))}, ${totals.keptOpenWhileClosing.length} answers while closing without Connection: close`;
  console.log(summary);
  expect(totals.lost, summary).toEqual([]);
  expect(totals.keptOpenWhileClosing, summary).toEqual([]);
  expect(totals.badExits, summary).toEqual([]);
  // The load really ran into the shutdowns: requests on kept-alive connections were in flight.
  expect(totals.closedKeptAlive, summary).toBeGreaterThanOrEqual(shutdownsPerEngine);
}

// Timeouts here are upper bounds that only end a hung run, not waits: each engine's test starts and SIGTERMs the
// service four times under load (several seconds when idle, several times that on a saturated machine).
describe('SIGTERM under keep-alive load', () => {
  let postgres: TestPostgres;
  let root: string;
  let pgliteDir: string;
  beforeAll(async () => {
    postgres = await createTestPostgres('robust_keepalive');
    root = await mkdtemp(join(tmpdir(), 'robust-keepalive-'));
    pgliteDir = join(root, 'pglite');
    // initdb, migrations and the demo data once: each service below only reopens the directory.
    const database = await openDatabase({ dataDir: pgliteDir });
    try {
      await migrate(database);
      await seedIfEmpty(database);
    } finally {
      await database.close();
    }
  }, 120_000);
  afterAll(async () => {
    await postgres.drop();
    await rm(root, { recursive: true, force: true });
  });

  // The two engines run side by side: each has its own database and its own services, and nothing here
  // is a timing bound (a request gets 30 s, a start 60 s), so the other engine's load only makes the
  // shutdowns harsher. Much of a run is a service starting, which leaves the second core idle when the
  // engines take turns. Concurrent tests report through their own `expect`.
  it.concurrent('resets no request on PostgreSQL', async ({ expect }) => {
    await runShutdowns(expect, 'PostgreSQL', { DATABASE_URL: postgres.url, SHUTDOWN_TIMEOUT_MS: '5000' });
  }, 300_000);

  it.concurrent('resets no request on PGlite', async ({ expect }) => {
    await runShutdowns(expect, 'PGlite', { DATABASE_URL: '', PGLITE_DATA_DIR: pgliteDir, SEED_DEMO_DATA: 'off', SHUTDOWN_TIMEOUT_MS: '5000' });
  }, 300_000);
});
