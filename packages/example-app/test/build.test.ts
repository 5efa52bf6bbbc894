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
  });
});
