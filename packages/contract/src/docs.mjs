// Renders the API reference page: Redoc's standalone bundle and the PUBLISHED spec, both inlined, so
// the page needs no network. Plain JS (with docs.d.mts) so that scripts/docs.mjs can run it without
// a TypeScript loader; the service imports the same function to serve /docs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Redoc's sidebar shows Redocly's logo from their CDN: the page must not reach the network, and the
// service's Content-Security-Policy for /docs (img-src 'self' data:) would block it with a console
// error. The same small mark, inlined as a data: URI, takes its place.
const remoteLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const inlineLogo = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d12f2f"/></svg>')}`;

/**
 * @param {object} [published] a published spec to render instead of the generated one (tests of a
 *   scratch spec); default: `generated/openapi.published.json`
 * @returns {string} the HTML page
 */
export function renderDocsHtml(published) {
  const spec = published === undefined ? readFileSync(new URL('../generated/openapi.published.json', import.meta.url), 'utf8') : JSON.stringify(published);
  const redoc = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').replaceAll(remoteLogo, inlineLogo);
  const title = JSON.parse(spec).info.title;
  // `</script>` inside the inlined JSON would end the script element early.
  const safeSpec = spec.replace(/<\//g, '<\\/');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <!-- No favicon request: the page is self-contained, and a 404 for /favicon.ico is a console error. -->
  <link rel="icon" href="data:,">
  <style>body { margin: 0; padding: 0; }</style>
</head>
<body>
  <div id="redoc"></div>
  <script>${redoc}</script>
  <script>
    Redoc.init(${safeSpec}, { hideDownloadButton: false, expandResponses: '200,201', jsonSampleExpandLevel: 3 }, document.getElementById('redoc'));
  </script>
</body>
</html>
`;
}
