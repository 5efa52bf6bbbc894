// `pnpm typecheck` checks the node packages as one program (scripts/tsconfig.node-packages.json) rather
// than each package's tsconfig.json: that holds only while the one program checks exactly the files
// the packages' own programs check, under exactly their compiler options. A package whose tsconfig
// gains an option or a folder, or a new package, fails here until the shared program follows.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** Packages whose programs differ from the base options (DOM, bundler resolution): checked apart. */
const checkedApart = new Set(['example-app']);

/** A tsconfig's files and options as tsc resolves them (extends, includes and excludes applied). */
function program(configPath: string): { fileNames: string[]; options: Record<string, unknown> } {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, join(configPath, '..'), undefined, configPath);
  // Where the config file is says nothing about how the files are checked.
  const { configFilePath: _path, ...options } = parsed.options;
  return { fileNames: parsed.fileNames, options };
}

const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'tsconfig.json')) && !checkedApart.has(name));

describe("typecheck's shared program of the node packages", () => {
  const shared = program(join(root, 'scripts/tsconfig.node-packages.json'));

  it('checks every file of every node package, and no other', () => {
    expect(packages.length).toBeGreaterThanOrEqual(6);
    const perPackage = packages.flatMap((name) => program(join(root, 'packages', name, 'tsconfig.json')).fileNames);
    expect([...new Set(shared.fileNames)].sort()).toEqual([...new Set(perPackage)].sort());
  });

  it.each(packages)('uses the compiler options of %s', (name) => {
    expect(shared.options).toEqual(program(join(root, 'packages', name, 'tsconfig.json')).options);
  });
});
