// The reset's gate: an exclusive task starts only when every request already in has answered, and a
// request arriving while it runs waits until it is done.
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { requestGate, type RequestGate } from '../../src/mock/request-gate.js';

/** Lets a request through the gate; `answer()` ends it as a response's 'close' would. */
function request(gate: RequestGate, log: string[], name: string): { entered: Promise<void>; answer: () => void } {
  const response = new EventEmitter();
  const entered = new Promise<void>((resolve) => {
    gate.middleware({} as Request, response as unknown as Response, () => {
      log.push(`${name} in`);
      resolve();
    });
  });
  return {
    entered,
    answer: () => {
      log.push(`${name} out`);
      response.emit('close');
    },
  };
}

describe('requestGate', () => {
  it('runs an exclusive task after the requests in flight and before the requests that arrive meanwhile', async () => {
    const gate = requestGate();
    const log: string[] = [];
    const early = request(gate, log, 'early');
    await early.entered;
    const task = gate.exclusive(async () => {
      log.push('task');
      return 42;
    });
    const late = request(gate, log, 'late');
    await Promise.resolve();
    expect(log).toEqual(['early in']);
    early.answer();
    expect(await task).toBe(42);
    await late.entered;
    expect(log).toEqual(['early in', 'early out', 'task', 'late in']);
    late.answer();
  });

  it('runs two exclusive tasks one after the other, and opens again after a task that failed', async () => {
    const gate = requestGate();
    const log: string[] = [];
    const slow = gate.exclusive(async () => {
      log.push('first start');
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push('first end');
      throw new Error('restore failed');
    });
    const second = gate.exclusive(async () => {
      log.push('second');
    });
    await expect(slow).rejects.toThrow('restore failed');
    await second;
    expect(log).toEqual(['first start', 'first end', 'second']);
    const after = request(gate, log, 'after');
    await after.entered;
    after.answer();
  });

  it('forgets a held request whose client left before it got in: the next task does not wait for it', async () => {
    const gate = requestGate();
    const log: string[] = [];
    let releaseTask = (): void => undefined;
    const task = gate.exclusive(() => new Promise<void>((resolve) => (releaseTask = resolve)));
    await Promise.resolve();
    const response = new EventEmitter();
    let entered = false;
    gate.middleware({} as Request, response as unknown as Response, () => {
      entered = true;
    });
    response.emit('close');
    releaseTask();
    await task;
    await gate.exclusive(async () => {
      log.push('next task ran');
    });
    expect([entered, log]).toEqual([false, ['next task ran']]);
  });
});
