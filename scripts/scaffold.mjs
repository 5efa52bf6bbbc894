#!/usr/bin/env node
// `pnpm scaffold`: writes a compiling, typed stub for every operationId of the spec that has no
// handler yet, in the file of its tag under packages/server/src/operations/ (created when the tag is
// new), and wires it into operations/index.ts. It only adds: an existing handler, file or line is
// never rewritten. It prints what it wrote; exit 1 when it cannot wire safely.
// Runs after `pnpm generate` (the package script does both) and reads the generated operation
// table, so it needs tsx: `node --import tsx scripts/scaffold.mjs`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { declaresHandler, missingImports, newTagFile, planStubs, readWiring, staleOperations, stubSource, withImports, wire } from './lib/scaffold-core.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const operationsDir = join(root, 'packages/server/src/operations');
const indexFile = join(operationsDir, 'index.ts');
const show = (file) => relative(root, file);

async function main() {
  const { operationTable } = await import(pathToFileURL(join(root, 'packages/contract/generated/operations.ts')).href);
  const entries = Object.values(operationTable);
  const wiring = readWiring(readFileSync(indexFile, 'utf8'));
  const stubs = planStubs(entries, wiring);

  for (const operationId of staleOperations(entries, wiring)) {
    console.log(`scaffold: ${operationId} is wired in ${show(indexFile)} but no longer in the spec: remove its handler by hand.`);
  }
  if (stubs.length === 0) {
    console.log(`scaffold: every one of the ${entries.length} operations has a handler; nothing written.`);
    return 0;
  }

  // Check every stub can be written before touching any file.
  for (const { entry } of stubs) stubSource(entry);

  for (const stub of stubs) {
    const file = join(operationsDir, `${stub.file}.ts`);
    const created = !existsSync(file);
    const source = created ? newTagFile(stub.entry.tag) : readFileSync(file, 'utf8');
    if (declaresHandler(source, stub.entry.operationId)) {
      console.log(`scaffold: ${stub.entry.operationId} already exists in ${show(file)}; only wired it.`);
      continue;
    }
    const next = `${withImports(source, missingImports(source)).replace(/\n*$/, '\n')}${stubSource(stub.entry)}`;
    writeFileSync(file, next);
    const answer = stubSource(stub.entry).match(/status: (\d+)/)?.[1];
    console.log(
      `scaffold: wrote a stub for ${stub.entry.operationId} (${stub.entry.method} ${stub.entry.path}) in ${show(file)}${created ? ' (new file)' : ''}; it answers ${answer} until implemented.`,
    );
  }
  writeFileSync(indexFile, wire(wiring, stubs));
  console.log(`scaffold: wired ${stubs.map((stub) => stub.entry.operationId).join(', ')} in ${show(indexFile)}.`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`scaffold: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
