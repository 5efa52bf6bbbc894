// The benchmarks guide's profiling lines (packages/bench/README.md, "Where the CPU goes: `--profile`"):
// the `issue` line runs as written, on the smallest data set (`--smoke`, a database of this run's own)
// and with one second of load, and must print its profile; the first line differs from it only in its
// scenario and `--seconds`: its scenario must be a search of the benchmark (the one the command profiles
// by default), and `--seconds 10` a length it takes. Its own run (the service, express alone and the
// hand-wired peer, each loaded for its seconds) costs half a minute of both cores, which the measuring
// of a CPU profile needs and a test does not. The profiles written meanwhile are removed again.
import { rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeBlock, runBlock } from '../../../scripts/lib/readme-blocks.mjs';
import { profiles } from '../src/profiles.js';
import { searchScenarios } from '../src/scenarios.js';

const block = readmeBlock('packages/bench/README.md', '## Where the CPU goes: `--profile`', 'pnpm bench -- --profile');
const [searchLine = '', issueLine = ''] = block.trim().split('\n');
const database = `bench_readme_profile_${process.pid}`;
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe("the benchmarks guide's --profile lines", () => {
  let profileDirectory: string | undefined;

  afterAll(async () => {
    if (profileDirectory !== undefined) {
      await rm(profileDirectory, { recursive: true, force: true });
      // .data/bench-profiles and .data, when this run made them and left them empty.
      for (const parent of [dirname(profileDirectory), dirname(dirname(profileDirectory))]) await rmdir(parent).catch(() => undefined);
    }
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    try {
      await admin.query(`drop database if exists "${database}" with (force)`);
    } finally {
      await admin.end();
    }
  });

  it('profiles the issue of a delivery and prints the top functions, on the smallest data set', async () => {
    expect(issueLine).toBe('pnpm bench -- --profile issue');
    const { stdout } = await runBlock(`${issueLine} --smoke --seconds 1 --database ${database}`, { timeoutMs: 600_000 });
    expect(stdout).toContain("# CPU profile of the service: 'issue'");
    expect(stdout).toMatch(/\d+ requests, [\d.,]+ req\/s, p50 [\d.]+ ms, p99 [\d.]+ ms, 0 errors/);
    expect(stdout).toContain('| function (self time) | self ms | % of busy |');
    const profile = /CPU profile: (\S+\/bench-profiles\/run-[^/\s]+)\//.exec(stdout)?.[1];
    expect(profile?.startsWith(repoRoot)).toBe(true);
    profileDirectory = profile;
  });

  it("the first line's scenario is the benchmark's search it profiles by default, and --seconds a length", () => {
    const match = /^pnpm bench -- --profile '([^']+)' --seconds (\d+)$/.exec(searchLine);
    expect(match).not.toBeNull();
    expect(searchScenarios(profiles.quick).map((scenario) => scenario.name)).toContain(match?.[1]);
    expect(Number(match?.[2])).toBeGreaterThan(0);
  });
});
