#!/usr/bin/env node
// `pnpm mock`: the Prism mock of the API on 127.0.0.1:$PORT (default 4010), over the bundled spec.
//   pnpm mock                      answers with the spec's named examples
//   pnpm mock -- --dynamic         answers generated from the schemas (or MOCK_DYNAMIC=1)
// Ask for any documented answer with `Prefer: code=404`, or for one named example with its status:
// `Prefer: code=409, example=AlreadyIssued` (Prism looks `example=` up only among the answers of the
// status it picked, the first success unless `code=` says otherwise: `example=` alone is a 404).
// Requests without `Authorization: Bearer ...` get the spec's 401 Error example. Prism runs with a
// guard that refuses every non-loopback connection, so the mock never reaches the network.
// Prism cannot send bytes (stoplightio/prism#2054): for a spec with a byte answer (a PDF, an image),
// a small front on $PORT passes every request to Prism and sends a small valid file of that media type
// in place of the body Prism makes up (scripts/lib/prism-front.mjs); the product's spec has none.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, startPrism } from './lib/prism.mjs';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
if (args.includes('--help') || args.includes('-h')) {
  console.log('usage: pnpm mock [-- --dynamic]   env: PORT (default 4010), MOCK_DYNAMIC=1');
  process.exit(0);
}
const unknown = args.filter((arg) => arg !== '--dynamic');
if (unknown.length > 0) {
  console.error(`mock: unknown argument(s) ${unknown.join(' ')}; try --help`);
  process.exit(2);
}
const dynamic = args.includes('--dynamic') || /^(1|true|yes)$/i.test(process.env.MOCK_DYNAMIC ?? '');
const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`mock: PORT must be a port number, got ${process.env.PORT}`);
  process.exit(2);
}

// A no-op when the spec did not change since the last run.
const generated = spawnSync(process.execPath, [join(repoRoot, 'scripts/generate.mjs')], { cwd: repoRoot, stdio: 'inherit' });
if (generated.status !== 0) process.exit(generated.status ?? 1);

try {
  const prism = await startPrism({ mode: 'mock', dynamic, port, onOutput: (line) => console.log(line) });
  console.log(`mock: ${dynamic ? 'dynamic answers' : 'named examples'} on ${prism.url} (Ctrl-C stops it)`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void prism.stop());
  const { code } = await prism.exited;
  process.exitCode = code ?? 0;
} catch (error) {
  console.error(`mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
