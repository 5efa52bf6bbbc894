// The service as a process, compiled as production runs it (`pnpm build`: dist/main.js): it migrates and seeds a fresh database, logs the URL it
// listens on (PORT=0), serves, and stops cleanly on SIGTERM; a bad setting stops it before it starts.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledMainArguments } from '../support/compiled-service.js';
import { createPostgresDatabase, type ScratchPostgres } from '../support/databases.js';
import { testKeyFile, token } from './support/service.js';

interface Started {
  url: Promise<string>;
  exited: Promise<number | null>;
  lines: Array<Record<string, unknown>>;
  stderr: () => string;
  kill(signal: NodeJS.Signals): void;
}

function startMain(env: Record<string, string>): Started {
  const child = spawn(process.execPath, compiledMainArguments, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DEV_KEY_FILE: testKeyFile, LOG_LEVEL: 'info', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      lines.push(parsed);
      if (parsed.msg === 'listening' && typeof parsed.url === 'string') resolve(parsed.url);
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
  });
  url.catch(() => undefined);
  return { url, exited, lines, stderr: () => stderr, kill: (signal) => child.kill(signal) };
}

describe('the compiled src/main.ts', () => {
  let scratch: ScratchPostgres;
  beforeAll(async () => {
    scratch = await createPostgresDatabase('http_main');
  });
  afterAll(() => scratch?.drop());

  it('migrates and seeds, logs its URL, serves, and exits 0 on SIGTERM', async () => {
    const service = startMain({ DATABASE_URL: scratch.url, SEED_DEMO_DATA: 'on', METRICS_PORT: '0' });
    try {
      const url = await service.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The listening line says where the reference, the spec and the metrics are.
      const listening = service.lines.find((line) => line.msg === 'listening');
      expect(listening).toMatchObject({
        docs: `${url}/docs`,
        openapi: `${url}/openapi.json`,
        metrics: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/),
      });
      expect(service.lines.some((line) => line.msg === 'empty database seeded with the demo data')).toBe(true);
      // The validators are compiled before the first request can arrive (warm-up.ts).
      const messages = service.lines.map((line) => line.msg);
      expect(messages.indexOf('validators compiled')).toBeGreaterThanOrEqual(0);
      expect(messages.indexOf('validators compiled')).toBeLessThan(messages.indexOf('listening'));

      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const users = await fetch(`${url}/api/v1/users`, { headers: { authorization: `Bearer ${await token({ accountId: 1 })}` } });
      expect(users.status).toBe(200);
      expect(((await users.json()) as { users: unknown[] }).users.length).toBeGreaterThan(0);
      // METRICS_PORT: its own listener, counting what was just served.
      const metrics = await (await fetch(String(listening?.metrics))).text();
      expect(metrics).toContain('http_requests_total{operation_id="listUsers",status="200"} 1\n');
      expect(metrics).toContain('database_pool_max_connections{engine="postgres"} 10\n');
    } finally {
      service.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
    expect(service.lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    // Seeding a fresh PostgreSQL database and compiling the validators: on a loaded machine, more than the default 30 s.
  }, 60_000);

  it('refuses to start with a bad setting, naming it, with exit code 2', async () => {
    const service = startMain({ PORT: 'eighty' });
    expect(await service.exited).toBe(2);
    expect(service.stderr()).toMatch(/Configuration error: PORT/);
  });

  it('refuses REQUEST_VALIDATION=off in production (a benchmark-only switch)', async () => {
    const service = startMain({
      NODE_ENV: 'production',
      JWT_ISSUER: 'https://auth.example.com/',
      JWT_AUDIENCE: 'https://api.example.com',
      JWT_JWKS_URL: 'https://auth.example.com/jwks.json',
      REQUEST_VALIDATION: 'off',
    });
    expect(await service.exited).toBe(2);
    expect(service.stderr()).toMatch(/Configuration error: REQUEST_VALIDATION=off is for benchmarks only/);
  });

  it('refuses the development key in production', async () => {
    const service = startMain({ NODE_ENV: 'production', JWT_ISSUER: '', JWT_AUDIENCE: '', JWT_JWKS_URL: '' });
    expect(await service.exited).toBe(2);
    expect(service.stderr()).toMatch(/JWT_ISSUER, JWT_AUDIENCE, JWT_JWKS_URL must be set/);
  });
});
