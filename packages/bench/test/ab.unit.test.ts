// The A/B harness's rounds: which processes each round measures, in which order, and that every
// process it started is stopped, when a warm-up fails too. Real child processes (a tiny server), so
// that the CPU each round reads is a process's own.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { interleavedRounds, ratioSpread, roundByRoundRatio, type AbProcesses, type AbSide, type AbSideResult } from '../src/ab.js';
import { startServer, type RunningServer } from '../src/child-process.js';
import { runHttpLoad } from '../src/http-load.js';

const tinyServer = fileURLToPath(new URL('./support/tiny-server.mjs', import.meta.url));

/** A side whose every start is a new tiny server, all of them kept for the test to inspect. */
function side(name: string, started: RunningServer[]): AbSide {
  return {
    name,
    async start() {
      const server = await startServer({ entry: tinyServer, env: {} });
      started.push(server);
      return server;
    },
  };
}

/** Runs `rounds` rounds of sides a and b; each measurement records which side's process (by pid) it ran on. */
async function run(processes: AbProcesses, rounds: number) {
  const started = { a: [] as RunningServer[], b: [] as RunningServer[] };
  const measured: Array<{ side: string; pid: number | undefined }> = [];
  const all = () => [...started.a, ...started.b];
  await interleavedRounds({
    sides: [side('a', started.a), side('b', started.b)],
    rounds,
    processes,
    async warmUp(url) {
      await fetch(url);
    },
    async measure(url) {
      await fetch(url);
      // The newest process at that URL: a port may be reused by a later start.
      const server = all()
        .reverse()
        .find((candidate) => candidate.url === url);
      measured.push({ side: started.a.includes(server!) ? 'a' : 'b', pid: server?.process.pid });
      return { requestsPerSecond: 1, p50: 1, p99: 1, requests: 1, errors: 0 };
    },
    log: () => undefined,
  });
  return { started, measured, all };
}

const exited = (server: RunningServer) => server.process.exitCode !== null || server.process.signalCode !== null;

describe('interleavedRounds', () => {
  it('fresh per round: each round measures a process of its own per side, in rotated order, and stops every one', async () => {
    const { started, measured, all } = await run('fresh per round', 3);
    expect(measured.map((entry) => entry.side)).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(started.a).toHaveLength(3);
    expect(started.b).toHaveLength(3);
    expect(new Set(measured.map((entry) => entry.pid)).size).toBe(6);
    expect(all().every(exited)).toBe(true);
  }, 60_000);

  it('one per side: every round of a side measures the same process, stopped at the end', async () => {
    const { started, measured, all } = await run('one per side', 3);
    expect(measured.map((entry) => entry.side)).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(started.a).toHaveLength(1);
    expect(started.b).toHaveLength(1);
    expect(new Set(measured.filter((entry) => entry.side === 'a').map((entry) => entry.pid)).size).toBe(1);
    expect(all().every(exited)).toBe(true);
  }, 60_000);

  it('stops the process whose warm-up failed, and the rest, and reports the failure', async () => {
    const started: RunningServer[] = [];
    let warmUps = 0;
    const rounds = interleavedRounds({
      sides: [side('a', started), side('b', started)],
      rounds: 2,
      processes: 'one per side',
      async warmUp() {
        warmUps += 1;
        if (warmUps === 2) throw new Error('warm-up refused');
      },
      measure: async () => ({ requestsPerSecond: 1, p50: 1, p99: 1, requests: 1, errors: 0 }),
      log: () => undefined,
    });
    await expect(rounds).rejects.toThrow('warm-up refused');
    expect(started).toHaveLength(2);
    expect(started.every(exited)).toBe(true);
  }, 60_000);

  it('logs what the first failed request of a round got', async () => {
    const started: RunningServer[] = [];
    const lines: string[] = [];
    const [result] = await interleavedRounds({
      sides: [side('a', started)],
      rounds: 1,
      processes: 'fresh per round',
      async warmUp() {},
      // The tiny server answers 204; a measurement that expects 200 counts every answer as failed.
      measure: (url) => runHttpLoad({ url, method: 'GET', path: '/', connections: 1, measure: { requests: 2 }, expectStatus: 200 }),
      log: (line) => lines.push(line),
    });
    expect(result?.rounds[0]?.errors).toBe(2);
    expect(lines).toContain('  round 1/1: a: 2 failed, the first: status 204: ');
  }, 60_000);
});

describe('ratios between two sides', () => {
  // Two sides whose CPU moved together from round to round, as on a machine with slow stretches: b
  // costs twice a in every round, while a's slowest round costs more than b's fastest.
  const sideWith = (name: string, cpu: number[]): AbSideResult => {
    const rounds = cpu.map((cpuMsPerRequest) => ({ requestsPerSecond: 1, p50: 1, p99: 1, requests: 1, errors: 0, cpuMsPerRequest }));
    const cpuMsPerRequest = { median: [...cpu].sort((x, y) => x - y)[1]!, min: Math.min(...cpu), max: Math.max(...cpu) };
    const nothing = { median: Number.NaN, min: Number.NaN, max: Number.NaN };
    return {
      name,
      rounds,
      cpuMsPerRequest,
      requestsPerSecond: nothing,
      p50: nothing,
      p99: nothing,
      databaseCpuMsPerRequest: nothing,
      totalCpuMsPerRequest: nothing,
      statements: undefined,
    };
  };
  const a = sideWith('a', [0.1, 0.3, 0.2]);
  const b = sideWith('b', [0.2, 0.6, 0.4]);

  it('round by round pairs the two sides of each round', () => {
    const ratio = roundByRoundRatio(b, a, (figures) => figures.cpuMsPerRequest);
    expect(ratio.median).toBeCloseTo(2);
    expect(ratio.min).toBeCloseTo(2);
    expect(ratio.max).toBeCloseTo(2);
  });

  it('over every pairing allows the luckiest round of one side against the unluckiest of the other', () => {
    const ratio = ratioSpread(b.cpuMsPerRequest, a.cpuMsPerRequest);
    expect(ratio.median).toBeCloseTo(2);
    expect(ratio.min).toBeCloseTo(0.2 / 0.3);
    expect(ratio.max).toBeCloseTo(0.6 / 0.1);
  });

  it('refuses sides that ran a different number of rounds', () => {
    expect(() => roundByRoundRatio(b, sideWith('c', [0.1, 0.2]), (figures) => figures.cpuMsPerRequest)).toThrow('b ran 3 rounds and c 2');
  });
});
