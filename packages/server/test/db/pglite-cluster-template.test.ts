// A new PGlite cluster starts from the fresh-cluster template, not from initdb: the template is made
// once and kept, a directory that already holds a cluster is opened as it is (never overwritten from
// the template), and a template that cannot be kept still serves the process that made it.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { clusterTemplatePath, freshClusterTemplate, holdsNoCluster, templateFor } from '../../src/db/pglite-cluster-template.js';
import { databaseHookTimeoutMs } from '../support/databases.js';

describe('the fresh-cluster template', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cluster-template-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it(
    'is made once at its path and read back from there',
    async () => {
      const path = join(scratch, 'made', 'template.tar');
      const made = await freshClusterTemplate(path);
      expect((await stat(path)).size).toBe(made.size);
      expect(await freshClusterTemplate(path)).toBe(made);
    },
    databaseHookTimeoutMs,
  );

  it(
    'is what a new directory starts from: a cluster planted in the template is the one opened',
    async () => {
      // A template holding a marker table, in place of a fresh cluster: only a copy of it has the table.
      // Made from the checkout's own template rather than by another initdb.
      const planted = await PGlite.create({ loadDataDir: await freshClusterTemplate() });
      await planted.exec('create table planted_marker (id integer)');
      const path = join(scratch, 'planted.tar');
      await writeFile(path, new Uint8Array(await (await planted.dumpDataDir('none')).arrayBuffer()));
      await planted.close();

      const dataDir = join(scratch, 'from-planted');
      expect(await holdsNoCluster(dataDir)).toBe(true);
      const pglite = await PGlite.create({ dataDir, loadDataDir: await templateFor(dataDir, path) });
      const tables = await pglite.query<{ name: string }>(`select tablename as name from pg_tables where tablename = 'planted_marker'`);
      await pglite.close();
      expect(tables.rows).toEqual([{ name: 'planted_marker' }]);
      // The directory now holds a cluster: it is never filled from the template again.
      expect(await holdsNoCluster(dataDir)).toBe(false);
      expect(await templateFor(dataDir, path)).toBeUndefined();
    },
    databaseHookTimeoutMs,
  );

  it(
    'serves the process that made it when it cannot be kept',
    async () => {
      const notADirectory = join(scratch, 'a-file');
      await writeFile(notADirectory, '');
      const dump = await templateFor(undefined, join(notADirectory, 'template.tar'));
      expect(dump?.size).toBeGreaterThan(0);
    },
    databaseHookTimeoutMs,
  );

  it(
    'gives openDatabase a working, migratable cluster in a new directory, and keeps the template in .data/',
    async () => {
      const database = await openDatabase({ dataDir: join(scratch, 'opened') });
      try {
        await migrate(database);
        const accounts = await database.db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow();
        expect(Number(accounts.count)).toBe(0);
      } finally {
        await database.close();
      }
      expect((await stat(await clusterTemplatePath())).size).toBeGreaterThan(0);
    },
    databaseHookTimeoutMs,
  );
});
