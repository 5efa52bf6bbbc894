// The A/B harness's rounds: which processes each round measures, in which order, and that every
// process it started is stopped, when a warm-up fails too. Real child processes (a tiny server), so
// that the CPU each round reads is a process's own.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { interleavedRounds, ratioSpread, roundByRoundRatio, summarise, type AbProcesses, type AbSide, type AbSideResult } from '../src/ab.js';
import type { Figures } from '../src/figures.js';
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
  const sideWith = (name: string, cpu: number[]): AbSideResult =>
    summarise(
      name,
      cpu.map((cpuMsPerRequest) => ({ requestsPerSecond: 1, p50: 1, p99: 1, requests: 1, errors: 0, cpuMsPerRequest })),
    );
  const cpu = (figures: Figures) => figures.cpuMsPerRequest;
  // Round by round b / a is 3.0, 1.2 and 1.0. Pairing the rounds by rank instead (sorted a against
  // sorted b) gives 2.0, 1.5 and 1.2, and the ratio of the medians 1.5: neither passes for the other.
  const a = sideWith('a', [0.1, 0.3, 0.2]);
  const b = sideWith('b', [0.3, 0.36, 0.2]);

  it('round by round pairs the two sides of the same round', () => {
    const ratio = roundByRoundRatio(b, a, cpu);
    expect(ratio.median).toBeCloseTo(1.2);
    expect(ratio.min).toBeCloseTo(1.0);
    expect(ratio.max).toBeCloseTo(3.0);
    expect([ratio.rounds, ratio.of]).toEqual([3, 3]);
    expect(ratio.ratios.map((value) => Number(value.toFixed(6)))).toEqual([3, 1.2, 1]);
  });

  it('over every pairing allows the luckiest round of one side against the unluckiest of the other', () => {
    const ratio = ratioSpread(b.cpuMsPerRequest, a.cpuMsPerRequest);
    expect(ratio.median).toBeCloseTo(1.5);
    expect(ratio.min).toBeCloseTo(0.2 / 0.3);
    expect(ratio.max).toBeCloseTo(0.36 / 0.1);
  });

  it('counts the rounds where either side has no figure, and leaves them out', () => {
    const ratio = roundByRoundRatio(sideWith('c', [0.3, Number.NaN, 0.2]), a, cpu);
    expect([ratio.rounds, ratio.of]).toEqual([2, 3]);
    expect(ratio.min).toBeCloseTo(1.0);
    expect(ratio.max).toBeCloseTo(3.0);
  });

  it('refuses sides that ran a different number of rounds', () => {
    expect(() => roundByRoundRatio(b, sideWith('c', [0.1, 0.2]), cpu)).toThrow('b ran 3 rounds and c 2');
  });

  it("keeps each side's rounds in round order, whatever order the sides ran in within a round", async () => {
    let round = 0;
    const started: RunningServer[] = [];
    const results = await interleavedRounds({
      sides: [side('a', started), side('b', started), side('c', started)],
      rounds: 3,
      processes: 'one per side',
      async warmUp() {},
      // The figure is the round the harness announced last: what a round-by-round pairing relies on.
      measure: async () => ({ requestsPerSecond: round, p50: 1, p99: 1, requests: 1, errors: 0 }),
      log: (line) => {
        const announced = /^ {2}round (\d+)\//.exec(line);
        if (announced) round = Number(announced[1]);
      },
    });
    for (const result of results)
      expect(
        result.rounds.map((figures) => figures.requestsPerSecond),
        result.name,
      ).toEqual([1, 2, 3]);
    expect(started.every(exited)).toBe(true);
  }, 60_000);
});
