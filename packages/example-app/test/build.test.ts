// The production bundle: what a frontend team deploys. It must build, carry the configured API
// address, and hold nothing that only runs in Node (the contract's spec loader stays out through its
// `browser` export condition).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { appRoot } from '../dev/serve.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'example-app-build-'));
const mswOutDir = mkdtempSync(join(tmpdir(), 'example-app-build-msw-'));
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(mswOutDir, { recursive: true, force: true });
});

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
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const entry = /<script type="module" crossorigin src="\/assets\/([^"]+\.js)">/.exec(html)?.[1];
    expect(scripts).toContain(entry);
    const bundle = readFileSync(join(outDir, 'assets', entry ?? ''), 'utf8');
    expect(bundle).toContain('https://api.example.test');
    // Vite replaces a Node built-in with a stub that throws when used: none may be in any chunk.
    for (const script of scripts) {
      expect(readFileSync(join(outDir, 'assets', script), 'utf8').match(/\bnode:\w+|has been externalized for browser compatibility/g) ?? [], script).toEqual(
        [],
      );
    }
    // The client's response validators (validateResponses, off in this app) are a chunk of their own
    // that the page neither loads nor preloads.
    const validators = scripts.filter((name) => name.startsWith('response-validators-'));
    expect(validators).toHaveLength(1);
    expect(html).not.toContain(validators[0]);
    expect(bundle).not.toContain('must NOT have additional properties');
    // Without VITE_API_MOCK=msw, neither MSW nor its worker script is shipped.
    expect(scripts.filter((name) => name.startsWith('mock-worker-'))).toEqual([]);
    expect(existsSync(join(outDir, 'mockServiceWorker.js'))).toBe(false);
  });

  it("in MSW mode, ships MSW's own worker script, as installed, and the handlers in a chunk of their own", async () => {
    await build({
      root: appRoot,
      configFile: join(appRoot, 'vite.config.ts'),
      logLevel: 'error',
      define: { 'import.meta.env.VITE_API_MOCK': JSON.stringify('msw') },
      build: { outDir: mswOutDir, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
    });
    const installed = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
    expect(readFileSync(join(mswOutDir, 'mockServiceWorker.js'), 'utf8')).toBe(readFileSync(installed, 'utf8'));
    expect(readdirSync(join(mswOutDir, 'assets')).filter((name) => name.startsWith('mock-worker-'))).toHaveLength(1);
  });
});
