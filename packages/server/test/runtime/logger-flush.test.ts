// The logger writes asynchronously from a buffer; these prove that the last lines before the end of
// the process reach stdout all the same: after a graceful exit, and after a crash (with its fatal
// line). A megabyte of lines is far more than a pipe holds, so an exit that did not write the buffer
// out synchronously would lose most of them.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./support/log-then-end.ts', import.meta.url));
const lines = 5_000;

async function run(ending: 'exit' | 'crash'): Promise<{ code: number | null; records: Array<Record<string, unknown>>; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ending], {
    env: { ...process.env, LINES: String(lines) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // Read slowly at first, so the child's writes meet a full pipe while it is ending.
  child.stdout.pause();
  setTimeout(() => child.stdout.resume(), 300);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  const records = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, records, stderr };
}

function indexes(records: ReadonlyArray<Record<string, unknown>>): number[] {
  return records.filter((record) => typeof record.index === 'number').map((record) => record.index as number);
}

describe('the asynchronous logger loses no line at the end of the process', () => {
  it('a graceful exit writes every buffered line, the last one included', async () => {
    const { code, records } = await run('exit');
    expect(code).toBe(0);
    expect(indexes(records)).toEqual(Array.from({ length: lines }, (_, index) => index + 1));
    expect(records.at(-1)?.msg).toBe('stopped');
  });

  it('a crash writes every buffered line, then the fatal line with the error, and exits with 1', async () => {
    const { code, records, stderr } = await run('crash');
    expect(code).toBe(1);
    expect(indexes(records)).toEqual(Array.from({ length: lines }, (_, index) => index + 1));
    const last = records.at(-1);
    expect(last?.level).toBe(60);
    expect(last?.msg).toBe('uncaught exception: exiting');
    expect(JSON.stringify(last?.err)).toContain('boom: the last lines must survive this');
    expect(stderr).toContain('boom: the last lines must survive this');
  });
});
