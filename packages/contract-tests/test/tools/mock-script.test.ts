// `pnpm mock` itself: the script starts Prism in dynamic mode on the port it is given (0 here: any
// free one), answers from the schemas, enforces the token, and stops on SIGTERM. And Prism, started
// the way both the mock and the proxy start it, cannot open a connection beyond loopback.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, startPrism } from '../../../../scripts/lib/prism.mjs';

function startMockScript(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts/mock.mjs'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pnpm mock did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /mock: (dynamic answers|named examples) on (http:\/\/\S+)/.exec(output);
      if (match?.[2]) {
        clearTimeout(timer);
        resolve(match[2]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`pnpm mock exited:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
}

describe('pnpm mock', () => {
  it('runs a dynamic mock (MOCK_DYNAMIC=1) that answers from the schemas and enforces the token', async () => {
    const mock = startMockScript([], { PORT: '0', MOCK_DYNAMIC: '1' });
    try {
      const url = await mock.url;
      expect(mock.output()).toContain('mock: dynamic answers');
      const anonymous = await fetch(`${url}/api/v1/users`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: 'unauthorized' });
      const users = await fetch(`${url}/api/v1/users`, { headers: { Authorization: 'Bearer any' } });
      expect(users.status).toBe(200);
      const body = (await users.json()) as { users: unknown[] };
      expect(Array.isArray(body.users)).toBe(true);
      // Lists are generated with at most 5 entries: uncapped, this list (up to 1000 deliveries of up
      // to 500 lines) made Prism stall and die.
      const deliveries = await fetch(`${url}/2.0/delivery`, { headers: { Authorization: 'Bearer any' } });
      expect(deliveries.status).toBe(200);
      const list = (await deliveries.json()) as { deliveries: Array<{ items: unknown[] }> };
      expect(list.deliveries.length).toBeGreaterThanOrEqual(1);
      expect(list.deliveries.length).toBeLessThanOrEqual(5);
      expect(list.deliveries.every((delivery) => delivery.items.length <= 5)).toBe(true);
    } finally {
      mock.child.kill('SIGTERM');
    }
    await mock.exited;
  });

  it('refuses an unknown argument', async () => {
    const mock = startMockScript(['--dynmic'], { PORT: '0' });
    mock.url.catch(() => undefined);
    expect(await mock.exited).toBe(2);
    expect(mock.output()).toContain('unknown argument');
  });
});

describe('Prism and the network', () => {
  it('cannot connect beyond loopback: a proxy to a public address fails at once, naming the guard', async () => {
    const proxy = await startPrism({ mode: 'proxy', upstream: 'http://192.0.2.1:80' });
    try {
      const response = await fetch(`${proxy.url}/healthz`);
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(await response.text()).toContain('loopback-only: refused a connection to 192.0.2.1');
    } finally {
      await proxy.stop();
    }
  });
});
