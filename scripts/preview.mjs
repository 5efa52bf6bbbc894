#!/usr/bin/env node
// `pnpm preview`: the API reference on http://127.0.0.1:PORT (default 8080), rebuilt from openapi/
// on every page load, so an API designer edits YAML and refreshes the browser. When the spec does
// not bundle, the page shows Redocly's error instead of a stale reference.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

async function renderPage() {
  const generated = spawnSync(process.execPath, [join(root, 'scripts/generate.mjs')], { cwd: root, encoding: 'utf8' });
  if (generated.status !== 0) {
    return {
      status: 500,
      html: `<!DOCTYPE html><meta charset="utf-8"><title>Spec error</title><h1>The spec does not bundle</h1><pre>${escapeHtml(generated.stdout + generated.stderr)}</pre>`,
    };
  }
  // renderDocsHtml reads the regenerated bundle from disk on every call.
  const { renderDocsHtml } = await import('../packages/contract/src/docs.mjs');
  return { status: 200, html: renderDocsHtml() };
}

createServer((request, response) => {
  if (request.url !== '/' && request.url !== '/index.html') {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  renderPage().then(
    ({ status, html }) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html),
    (error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
  );
}).listen(port, host, () => {
  console.log(`preview: http://${host}:${port}/ (rebuilt from openapi/ on every load; Ctrl-C to stop)`);
});
