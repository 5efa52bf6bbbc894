// The service guide's tracing steps (packages/server/README.md, "Tracing"), run as written: the start
// line with the console exporter, the start line with an OTLP endpoint (a receiver in this test stands
// where the guide starts Jaeger, whose image this machine cannot download), and the start without pnpm. Only
// the receiver's address (a free port for 4318) and the service's surroundings (a free port, a
// scratch data directory, the test key) differ. Each must answer a request and export its server span.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { pgliteTemplate } from '../support/databases.js';
import { testKeyFile } from '../http/support/service.js';
import { pnpmShellFunction } from '../../../../scripts/lib/pnpm-command.mjs';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/**
 * Each step starts the service through pnpm (generator check, build check, the process): seconds on a
 * quiet machine, a minute or more when the rest of the suite saturates it. The bound only ends a hung start.
 */
const stepTimeoutMs = 180_000;
/** Waits inside a step end well before the step's own bound, so that a failure says what it waited for. */
const waitMs = stepTimeoutMs / 3;
const jaegerEndpoint = 'http://127.0.0.1:4318';

const guide = 'packages/server/README.md';

/** The lines under `heading` up to the next heading of its level or above; lines in fenced blocks are no headings. */
function sectionOf(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`${guide} has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  let fenced = false;
  let end = lines.length;
  for (let index = start + 1; index < lines.length && end === lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line) && line.indexOf(' ') <= level) end = index;
  }
  return lines.slice(start, end).join('\n');
}

/** The guide's sh block under "### Tracing" that holds `marker`. */
async function tracingBlock(marker: string): Promise<string> {
  const section = sectionOf(await readFile(join(repoRoot, guide), 'utf8'), '### Tracing');
  const found = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').find((block) => block.includes(marker));
  if (found === undefined) throw new Error(`${guide}'s Tracing section has no sh block with ${marker}`);
  return found;
}

/** A loopback OTLP/HTTP receiver that keeps each export's raw body, whatever its protocol. */
async function startRawReceiver(): Promise<{ url: string; exports: Array<{ contentType: string; body: Buffer }>; server: Server }> {
  const exports: Array<{ contentType: string; body: Buffer }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') exports.push({ contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports, server };
}

interface StartedStep {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Runs a README block in bash from the repository root until its service logs that it listens. */
async function startStep(script: string, env: Record<string, string>): Promise<StartedStep> {
  // `pnpm` in the README is the pinned pnpm: the one running the suite, else npx (pnpm-command.mjs).
  const child = spawn('bash', ['-c', `set -euo pipefail\n${pnpmShellFunction()}\n${script}`], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that the stop reaches the service under pnpm and npx.
    detached: true,
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = once(child, 'exit');
  // The service under pnpm and npx holds the pipe until it has exited itself: bash, which the stop
  // signals first, is gone before the service has closed its database (the next step opens it).
  const outputClosed = once(child.stdout, 'close');
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      // The service's log lines are JSON; the console exporter's spans are printed objects.
      if (!line.includes('"msg":"listening"')) return;
      const entry = JSON.parse(line) as { url?: string };
      if (entry.url !== undefined) resolve(entry.url);
    });
    void exited.then(() => reject(new Error(`the step exited before the service listened:\n${output}`)));
  });
  const url = await listening;
  return {
    url,
    output: () => output,
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      // A service that does not end on SIGTERM is a failure (it once stayed alive after its shutdown
      // began): it is killed, so that it keeps no data directory, and the step says so.
      let killed = false;
      const kill = setTimeout(() => {
        killed = true;
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      }, waitMs);
      await Promise.all([exited, outputClosed]);
      clearTimeout(kill);
      if (killed) throw new Error(`the service did not exit within ${waitMs} ms of SIGTERM; its output ended with:\n${output.slice(-3000)}`);
    },
  };
}

describe("the service guide's tracing steps", () => {
  let dataDir: string;
  let receiver: Awaited<ReturnType<typeof startRawReceiver>>;
  let environment: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'readme-tracing-'));
    // A migrated database from the template cluster: each start is a reopen, not a cluster's creation.
    const database = await openDatabase({ url: '', dataDir, pgliteDataDirDump: await pgliteTemplate() });
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
    receiver = await startRawReceiver();
    environment = {
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: '',
      PGLITE_DATA_DIR: dataDir,
      DEV_KEY_FILE: testKeyFile,
      LOG_FORMAT: 'json',
      SEED_DEMO_DATA: 'off',
      REDIS_URL: '',
      // The batch processor's 5 s default is how long a span waits to be sent, not whether it is.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
  }, stepTimeoutMs);

  afterAll(async () => {
    receiver?.server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "OTEL_TRACES_EXPORTER=console pnpm start prints the request's server span",
    async () => {
      const block = await tracingBlock('OTEL_TRACES_EXPORTER=console');
      expect(block.trim()).toBe('OTEL_TRACES_EXPORTER=console pnpm start');
      const step = await startStep(block, environment);
      try {
        expect((await fetch(`${step.url}/healthz`)).status).toBe(200);
        await expect.poll(step.output, { timeout: waitMs, interval: 100 }).toMatch(/name: 'GET \/healthz'/);
      } finally {
        await step.stop();
      }
    },
    stepTimeoutMs,
  );

  for (const marker of ['pnpm start', 'node --enable-source-maps']) {
    it(
      `the OTLP endpoint line with ${marker} exports the request's server span as OTLP/protobuf`,
      async () => {
        const block = await tracingBlock(`OTEL_EXPORTER_OTLP_ENDPOINT=${jaegerEndpoint} ${marker}`);
        // The receiver stands in for Jaeger, whose container the guide starts in a block of its own.
        const script = block.replaceAll(jaegerEndpoint, receiver.url);
        const before = receiver.exports.length;
        const step = await startStep(script, environment);
        try {
          const answer = await fetch(`${step.url}/healthz`);
          expect(answer.status).toBe(200);
          // Protobuf keeps strings as their UTF-8 bytes: the span's name and route are in the export as written.
          const exported = () => receiver.exports.slice(before).filter((sent) => sent.body.includes('GET /healthz'));
          await expect.poll(() => exported().length, { timeout: waitMs, interval: 100 }).toBeGreaterThan(0);
          expect(exported()[0]!.contentType).toBe('application/x-protobuf');
          expect(exported()[0]!.body.includes(answer.headers.get('x-request-id') ?? 'no request id')).toBe(true);
        } finally {
          await step.stop();
        }
      },
      stepTimeoutMs,
    );
  }
});
