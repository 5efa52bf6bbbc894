#!/usr/bin/env node
// Writes packages/contract/generated/docs.html: the API reference as one self-contained page that
// opens from disk. Redocly's build-docs loads Redoc from a CDN; this inlines the Redoc bundle from
// node_modules and the bundled spec instead, so nothing is fetched when the page is opened.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDocsHtml } from '../packages/contract/src/docs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, 'packages/contract/generated/docs.html');
writeFileSync(output, renderDocsHtml());
console.log(`docs: wrote ${output}`);
