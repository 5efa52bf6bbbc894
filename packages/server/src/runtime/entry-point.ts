// Whether a module is the program Node was started with (`tsx src/main.ts`) rather than an import, so
// that a file can both run as a command and be imported by tests without running.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** True when `moduleUrl` (the caller's `import.meta.url`) is the file Node was asked to run. */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return moduleUrl === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}
