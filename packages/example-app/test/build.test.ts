// The production bundle: what a frontend team deploys. It must build, carry the configured API
// address, and hold nothing that only runs in Node (the contract's spec loader stays out through its
// `browser` export condition).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { appRoot } from '../dev/serve.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'example-app-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('vite build', () => {
  it('bundles the app for the browser with its configured API and no Node module', async () => {
    await build({
      root: appRoot,
      configFile: join(appRoot, 'vite.config.ts'),
      logLevel: 'error',
      define: { 'import.meta.env.VITE_API_BASE_URL': JSON.stringify('https://api.example.test') },
      build: { outDir, emptyOutDir: true },
    });
    const scripts = readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const bundle = readFileSync(join(outDir, 'assets', scripts[0]!), 'utf8');
    expect(bundle).toContain('https://api.example.test');
    // Vite replaces a Node built-in with a stub that throws when used: none may be in the bundle.
    expect(bundle.match(/\bnode:\w+|has been externalized for browser compatibility/g) ?? []).toEqual([]);
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toContain(`/assets/${scripts[0]}`);
  });
});
