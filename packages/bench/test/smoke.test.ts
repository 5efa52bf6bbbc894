// The benchmark runs end to end and prints its table: a tiny data set, a few requests per
// measurement. Timing targets are not checked here (the figures of a smoke run mean nothing);
// that every scenario produced numbers is.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { profiles } from '../src/profiles.js';
import { searchScenarios } from '../src/scenarios.js';

const run = promisify(execFile);
const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

/** The cells of the markdown table row whose first cell is `name`, or undefined. */
function row(report: string, name: string): string[] | undefined {
  const line = report.split('\n').find((candidate) => candidate.startsWith(`| ${name} `));
  return line
    ?.split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

const numeric = /^-?[\d,]+(\.\d+)?x?$/;

describe('pnpm bench -- --smoke', () => {
  it('prints a row with numeric figures for every scenario, the writes and the targets', async () => {
    const database = `bench_smoke_${process.pid}`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--smoke', '--drop', '--database', database], {
      cwd: packageDirectory,
      maxBuffer: 10 * 1024 * 1024,
      timeout: 140_000,
    });
    for (const scenario of searchScenarios(profiles.smoke)) {
      const cells = row(stdout, scenario.name);
      expect(cells, scenario.name).toBeDefined();
      // req/s, p50, p99 for the service, raw SQL and bare Node, then the two ratios.
      for (const cell of cells!.slice(1, 12)) expect(cell, `${scenario.name}: ${cells!.join(' | ')}`).toMatch(numeric);
      expect(cells![14], scenario.name).toBe('0');
    }
    for (const name of ['issue delivery (a different draft each)', 'create invoice', 'validation on', 'validation off']) {
      const cells = row(stdout, name);
      expect(cells, name).toBeDefined();
      for (const cell of cells!.slice(1, 4)) expect(cell, name).toMatch(numeric);
      expect(cells![5], name).toBe('0');
    }
    expect(stdout).toMatch(/RAISED RATE LIMITS/);
    expect(stdout).toMatch(/\| pnpm generate \(--force\) < 5 s +\| [\d.]+ s/);
    expect(stdout).toMatch(/\| service peak RSS \(VmHWM\) +\| [\d,.]+ MiB/);
    expect(stdout).toMatch(/deep page \(offset [\d,]+\): p50 <= 0\.25x the naive OFFSET plan/);
  });
});
