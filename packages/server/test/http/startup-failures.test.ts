// What a person sees when the service cannot start: one line on stderr naming the cause and the
// remedy, no stack trace (unless LOG_LEVEL=debug, and then with the .ts lines), a non-zero exit; real
// processes of the compiled service for the port in use and the unreachable database, real errors for
// the other causes. And the log format: readable lines
// on a terminal, JSON on a pipe, whichever LOG_FORMAT forces.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeStartupFailure } from '../../src/runtime/startup-failure.js';
import { compiledMainArguments } from '../support/compiled-service.js';
import { createPostgresDatabase, type ScratchPostgres } from '../support/databases.js';
import { testKeyFile } from './support/service.js';

const logLine = fileURLToPath(new URL('./support/log-line.ts', import.meta.url));
const stackFrame = /^\s+at /m;

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runMain(env: Record<string, string>): Promise<Exited> {
  const child = spawn(process.execPath, compiledMainArguments, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DEV_KEY_FILE: testKeyFile, LOG_LEVEL: 'info', REDIS_URL: '', SEED_DEMO_DATA: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function listening(port = 0): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as { port: number }).port;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = await listening();
  const port = portOf(server);
  await close(server);
  return port;
}

/** The error a listen on `port` and `host` raises. */
async function listenError(port: number, host = '127.0.0.1'): Promise<unknown> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', resolve);
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}

describe('start-up failures of the compiled src/main.ts', () => {
  let scratch: ScratchPostgres;
  let occupied: Server;
  beforeAll(async () => {
    scratch = await createPostgresDatabase('startup_failures');
    occupied = await listening();
  });
  afterAll(async () => {
    await close(occupied);
    await scratch?.drop();
  });

  it('names a port in use and the setting to change, in one line without a stack, exit 1', async () => {
    const port = portOf(occupied);
    const result = await runMain({ DATABASE_URL: scratch.url, PORT: String(port) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Cannot start: port ${port} is in use (127.0.0.1:${port}): set PORT to another port, or stop the other process\n`);
    expect(result.stdout).not.toMatch(/"level":60|listening/);
    expect(result.stdout + result.stderr).not.toMatch(stackFrame);
  }, 180_000);

  it('reports a port in use before it touches the database', async () => {
    // PostgreSQL unreachable as well: a start that opened the database first would name that instead.
    const port = portOf(occupied);
    const result = await runMain({ DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${await closedPort()}/invoices`, PORT: String(port) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Cannot start: port ${port} is in use (127.0.0.1:${port}): set PORT to another port, or stop the other process\n`);
  }, 60_000);

  it('names an unreachable PostgreSQL with its address and the URL without its password', async () => {
    const port = await closedPort();
    const result = await runMain({ DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/invoices` });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Cannot start: cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED): is it running, and is DATABASE_URL right? DATABASE_URL=postgres://app:***@127.0.0.1:${port}/invoices\n`,
    );
    expect(result.stdout).toBe('');
  }, 60_000);

  it('adds the stack at LOG_LEVEL=debug', async () => {
    const port = await closedPort();
    const result = await runMain({ DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/invoices`, LOG_LEVEL: 'debug' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(stackFrame);
    // Source maps: the frames name the TypeScript sources, not the compiled chunks.
    expect(result.stderr).toMatch(/packages\/server\/src\/[\w/-]+\.ts:\d+:\d+/);
    expect(result.stderr).not.toMatch(/packages\/server\/dist\//);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(/^Cannot start: cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  }, 60_000);
});

describe('describeStartupFailure with real errors', () => {
  let occupied: Server;
  beforeAll(async () => {
    occupied = await listening();
  });
  afterAll(() => close(occupied));

  it('names METRICS_PORT when the metrics port is the one in use', async () => {
    const port = portOf(occupied);
    const config = loadConfig({ PORT: '3000', METRICS_PORT: String(port) });
    expect(describeStartupFailure(await listenError(port), config)).toBe(
      `port ${port} is in use (127.0.0.1:${port}): set METRICS_PORT to another port, or stop the other process`,
    );
  });

  it('names HOST when it is not an address of this machine', async () => {
    // 192.0.2.0/24 is reserved for documentation (RFC 5737): no machine has it.
    const config = loadConfig({ HOST: '192.0.2.1', PORT: '3000' });
    expect(describeStartupFailure(await listenError(3000, '192.0.2.1'), config)).toBe(
      '192.0.2.1 is not an address of this machine: set HOST to one of its addresses (127.0.0.1, 0.0.0.0)',
    );
  });

  it('names a database that does not exist, with the command that creates it', async () => {
    const url = 'postgres://postgres@127.0.0.1:5432/no_such_database_startup_test';
    const client = new pg.Client({ connectionString: url });
    const error = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(describeStartupFailure(error, loadConfig({ DATABASE_URL: url }))).toBe(
      'PostgreSQL at 127.0.0.1:5432 has no database "no_such_database_startup_test": create it (createdb -h 127.0.0.1 -p 5432 no_such_database_startup_test) or fix DATABASE_URL=postgres://postgres@127.0.0.1:5432/no_such_database_startup_test',
    );
  });

  it('leaves an unknown failure to the caller', () => {
    expect(describeStartupFailure(new Error('something else'), loadConfig({}))).toBeUndefined();
  });
});

describe('LOG_FORMAT', () => {
  function logged(env: Record<string, string>, terminal: boolean): string[] {
    const command = [process.execPath, '--import', 'tsx', logLine];
    const result = terminal
      ? // util-linux `script` runs the command on a pseudo-terminal: stdout.isTTY is true there.
        spawnSync('script', ['-qec', command.map((part) => `'${part}'`).join(' '), '/dev/null'], { env: { ...process.env, ...env }, encoding: 'utf8' })
      : spawnSync(command[0] ?? '', command.slice(1), { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.split(/\r?\n/).filter((line) => line.trim() !== '');
  }

  it('writes JSON lines on a pipe by default', () => {
    const lines = logged({ LOG_FORMAT: '' }, false);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['listening', 'request completed']);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ docs: 'http://127.0.0.1:3000/docs', openapi: 'http://127.0.0.1:3000/openapi.json' });
  }, 60_000);

  it('writes readable lines on a terminal by default, and JSON when LOG_FORMAT=json', () => {
    const lines = logged({ LOG_FORMAT: '', NO_COLOR: '1' }, true);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening on http:\/\/127\.0\.0\.1:3000 \(reference http:\/\/127\.0\.0\.1:3000\/docs, spec http:\/\/127\.0\.0\.1:3000\/openapi\.json\)$/,
    );
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/healthz 200 3 ms$/);

    const json = logged({ LOG_FORMAT: 'json' }, true);
    expect(json.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['listening', 'request completed']);
  }, 60_000);

  it('writes readable lines on a pipe when LOG_FORMAT=pretty', () => {
    const lines = logged({ LOG_FORMAT: 'pretty', NO_COLOR: '1' }, false);
    expect(lines[0]).toMatch(/INFO: listening on http:\/\/127\.0\.0\.1:3000 /);
    expect(() => JSON.parse(lines[0] ?? '')).toThrow();
  }, 60_000);
});
