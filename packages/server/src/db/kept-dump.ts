// A dump kept in a file for later processes: read when it is there, else made and written to a unique
// name and renamed into place, so that processes starting side by side never read half a file. Where it
// cannot be written (a read-only checkout), the process that made it still uses it.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The dump at `path`, or `make()`'s, kept at `path`; `kept` runs once a new one is in place. */
export async function readOrMakeKeptDump(path: string, make: () => Promise<Blob>, kept?: () => Promise<void>): Promise<Blob> {
  try {
    return new Blob([await readFile(path)]);
  } catch {
    const dump = await make();
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, path);
    } catch {
      await rm(partial, { force: true }).catch(() => undefined);
      return dump;
    }
    await kept?.();
    return dump;
  }
}
