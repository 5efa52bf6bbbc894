// migrateDownTo: the schema an older checkout knows (the benchmark's before/after runs an older service
// on a copy of the data set brought back this way), and migrate bringing it forward again.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate, migrateDownTo, migrations } from '../../src/db/migrate.js';
import { engines, useTestDatabase } from '../support/databases.js';

const names = Object.keys(migrations);
/** The migration whose data must be rebuilt on the way back up (kept counts), and every one after it. */
const counts = '0007_invoice_counts';
const undone = names.slice(names.indexOf(counts));
const beforeCounts = names[names.indexOf(counts) - 1]!;

describe.each(engines)('migrateDownTo on %s', (engine) => {
  const database = useTestDatabase(engine, { seed: true, name: 'db_migrate_down' });

  const applied = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database().db)).rows.map((row) => row.name);
  /** Groups whose kept count differs from the invoices it counts (migration 0007 keeps them). */
  const wrongCounts = async () =>
    (
      await sql<{ account_id: number }>`
        select coalesce(k.account_id, i.account_id) as account_id
        from invoice_counts k
        full join (select account_id, status, currency, count(*)::int as invoices from invoices group by 1, 2, 3) i
          using (account_id, status, currency)
        where coalesce(k.invoices, 0) <> coalesce(i.invoices, 0)`.execute(database().db)
    ).rows;

  it('undoes the migrations after the named one, and migrate applies them again with their data rebuilt', async () => {
    const down = await migrateDownTo(database(), beforeCounts);
    expect(down.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual(
      [...undone].reverse().map((name) => [name, 'Down', 'Success']),
    );
    expect(await applied()).toEqual(names.slice(0, names.indexOf(counts)));
    for (const table of ['invoice_counts', 'invoice_attachments']) {
      expect((await sql<{ kept: string | null }>`select to_regclass(${table})::text as kept`.execute(database().db)).rows[0]?.kept, table).toBeNull();
    }

    // A write while the counts are not kept: the migration's way back up counts it.
    const changed = await sql`update invoices set status = 'cancelled' where id = (select min(id) from invoices where status = 'draft')`.execute(database().db);
    expect(Number(changed.numAffectedRows)).toBe(1);

    const up = await migrate(database());
    expect(up.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual(undone.map((name) => [name, 'Up', 'Success']));
    expect(await applied()).toEqual(names);
    expect(await wrongCounts()).toEqual([]);
  });

  it('refuses a name no migration has, and changes nothing', async () => {
    await expect(migrateDownTo(database(), '0000_no_such_migration')).rejects.toThrow('No migration is named 0000_no_such_migration');
    expect(await applied()).toEqual(names);
  });
});
