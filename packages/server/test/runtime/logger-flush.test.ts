// The logger writes asynchronously from a buffer; these prove that the last lines before the end of
// the process reach stdout all the same: after a graceful exit, and after a crash (with its fatal
// line). A megabyte of lines is far more than a pipe holds, so an exit that did not write the buffer
// out synchronously would lose most of them; a reader that takes them slowly still gets them all. And
// that a stdout nobody reads any more (a stalled log collector) cannot keep the process from ending:
// the last flush gives up on it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./support/log-then-end.ts', import.meta.url));
const lines = 5_000;

async function run(
  ending: 'exit' | 'crash',
  reader: 'slow' | 'trickling' | 'stalled' = 'slow',
): Promise<{ code: number | null; records: Array<Record<string, unknown>>; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ending], {
    env: { ...process.env, LINES: String(lines) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    // A reader that always takes more, a pipe's worth every 100 ms: the megabyte takes seconds.
    if (reader === 'trickling') {
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 100);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // Read slowly at first, so the child's writes meet a full pipe while it is ending; or never again.
  child.stdout.pause();
  if (reader !== 'stalled') setTimeout(() => child.stdout.resume(), 300);
  // A process that waits for a stalled reader never ends: an upper bound ends the wait and the test.
  // A reader: 'close', once stdout is read to its end; stalled: 'exit', stdout left unread.
  const ended = new Promise<number | null>((resolve) => child.once(reader === 'stalled' ? 'exit' : 'close', (exitCode: number | null) => resolve(exitCode)));
  const code = await Promise.race([ended, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 30_000).unref())]);
  if (code === 'still running') {
    child.kill('SIGKILL');
    throw new Error(`the process was still running 30 s after it began to end, waiting for its stdout's reader:\n${stderr}`);
  }
  if (reader === 'stalled') {
    child.stdout.destroy();
    return { code, records: [], stderr };
  }
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

  it('a reader that keeps taking lines, however slowly, gets every one: the flush waits while it reads', async () => {
    const { code, records } = await run('exit', 'trickling');
    expect(code).toBe(0);
    expect(indexes(records)).toEqual(Array.from({ length: lines }, (_, index) => index + 1));
    expect(records.at(-1)?.msg).toBe('stopped');
  }, 60_000);

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

describe('a stdout nobody reads cannot keep the process from ending', () => {
  it('a graceful exit gives up on the stalled reader and exits with 0', async () => {
    const { code } = await run('exit', 'stalled');
    expect(code).toBe(0);
  }, 60_000);

  it('a crash gives up on the stalled reader, says why on stderr and exits with 1', async () => {
    const { code, stderr } = await run('crash', 'stalled');
    expect(code).toBe(1);
    expect(stderr).toContain('boom: the last lines must survive this');
  }, 60_000);
});
