// A new PGlite data directory starts from a copy of a freshly initialised cluster instead of from
// initdb: initdb runs PostgreSQL's bootstrap in WebAssembly, most of a first start's CPU, and its
// result is the same files every time for one PGlite build. The copy is PGlite's own `dumpDataDir`
// of a cluster initialised in memory, made once per PGlite version and kept in `.data/` beside the
// default data directory (ignored by git, as trusted as the data itself), for every later directory
// of this checkout: tests, restores, a second instance's directory.
//
// Written to a unique name and renamed into place, so processes starting side by side never read half
// a file. A checkout where it cannot be written (read-only) makes one per process, in memory.
import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/** `.data/` at the repository root (this file is packages/server/src/db/pglite-cluster-template.ts). */
const templateDirectory = fileURLToPath(new URL('../../../../.data/', import.meta.url));

/** The PGlite version the server pins: a template is only valid for the build that wrote it. */
async function pgliteVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
  const version = manifest.dependencies['@electric-sql/pglite'];
  if (version === undefined) throw new Error('the server does not depend on @electric-sql/pglite');
  return version;
}

/** The template's file, named by the PGlite version. */
export async function clusterTemplatePath(): Promise<string> {
  return join(templateDirectory, `pglite-cluster-${await pgliteVersion()}.tar`);
}

async function readOrCreate(path: string): Promise<Blob> {
  try {
    return new Blob([await readFile(path)]);
  } catch {
    const pglite = await PGlite.create();
    let dump: Blob;
    try {
      dump = await pglite.dumpDataDir('none');
    } finally {
      await pglite.close();
    }
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, path);
    } catch {
      // Not kept (a read-only checkout): this process still starts from it, the next makes its own.
      await rm(partial, { force: true }).catch(() => undefined);
    }
    return dump;
  }
}

const templates = new Map<string, Promise<Blob>>();

/** A dump of a freshly initialised cluster at `path` (default: clusterTemplatePath()), read or made once per process. */
export async function freshClusterTemplate(path?: string): Promise<Blob> {
  const file = path ?? (await clusterTemplatePath());
  let template = templates.get(file);
  if (template === undefined) {
    template = readOrCreate(file);
    templates.set(file, template);
    // A failure is not kept: the next new cluster tries again.
    template.catch(() => templates.delete(file));
  }
  return template;
}

/** True when `dataDir` holds no cluster yet (PostgreSQL writes PG_VERSION first among its files). */
export async function holdsNoCluster(dataDir: string): Promise<boolean> {
  try {
    await access(join(dataDir, 'PG_VERSION'));
    return false;
  } catch {
    return true;
  }
}

/**
 * The template for a new cluster: in memory (`dataDir` undefined) or in a directory with no cluster
 * yet; undefined when the directory has one or no template can be had.
 */
export async function templateFor(dataDir: string | undefined, templatePath?: string): Promise<Blob | undefined> {
  if (dataDir !== undefined && !(await holdsNoCluster(dataDir))) return undefined;
  try {
    return await freshClusterTemplate(templatePath);
  } catch {
    return undefined;
  }
}
