// While stdout's reader does not keep up (a stalled log collector), the logger's buffer stops growing
// at its limit: lines beyond it are dropped and counted, and a warning in the log, where the gap is,
// says how many. Every line that is written arrives whole and in order.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./support/log-while-unread.ts', import.meta.url));
const lines = 5_000;
/** About 250 of the fixture's lines: a twentieth of what it writes while nobody reads. */
const bufferLimit = 65_536;

async function runUnread(): Promise<{ code: number | null; records: Array<Record<string, unknown>> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, LINES: String(lines), BUFFER_LIMIT: String(bufferLimit) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  // Nobody reads stdout until the child has logged every line.
  child.stdout.pause();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.includes('written\n')) child.stdout.resume();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode: number | null) => resolve(exitCode)));
  if (code !== 0) throw new Error(`the fixture exited with ${String(code)}:\n${stderr}`);
  const records = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, records };
}

describe('a stdout nobody reads costs log lines, never unbounded memory', () => {
  it('drops what does not fit the buffer, counts it, and says so in the log', async () => {
    const { records } = await runUnread();
    const indexes = records.filter((record) => typeof record.index === 'number').map((record) => record.index as number);
    const warnings = records.filter((record) => typeof record.droppedLines === 'number');
    const dropped = warnings.reduce((sum, record) => sum + (record.droppedLines as number), 0);
    // A warning still waiting for a write when the fixture stopped comes out with the last flush, after `stopped`.
    const stopped = records.find((record) => record.msg === 'stopped');

    expect(stopped).toBeDefined();
    // The buffer held about its limit: most lines were dropped, none of them silently.
    expect(dropped).toBeGreaterThan(lines / 2);
    expect(stopped?.dropped).toBe(dropped);
    expect(indexes.length + dropped).toBe(lines);
    // Lines that were written are whole (each parsed above) and in their order.
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(warnings.every((record) => record.level === 40 && String(record.msg).includes(`${String(record.droppedLines)} log lines dropped`))).toBe(true);
  }, 60_000);
});
