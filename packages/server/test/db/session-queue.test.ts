// The PGlite session's queue, which the metrics report as `database_pool_waiting` on PGlite: holders
// waiting are counted while they wait and leave the count when they get the session, in order.
import { describe, expect, it } from 'vitest';
import { SessionLock } from '../../src/db/pglite-dialect.js';
import { openTestDatabase } from '../support/databases.js';

describe('the PGlite session queue', () => {
  it('counts the holders waiting and whether the session is held', async () => {
    const lock = new SessionLock();
    expect({ waiting: lock.waiting, held: lock.held }).toEqual({ waiting: 0, held: false });
    const releaseFirst = await lock.acquire();
    const second = lock.acquire();
    const third = lock.acquire();
    expect({ waiting: lock.waiting, held: lock.held }).toEqual({ waiting: 2, held: true });
    releaseFirst();
    const releaseSecond = await second;
    expect({ waiting: lock.waiting, held: lock.held }).toEqual({ waiting: 1, held: true });
    releaseSecond();
    const releaseThird = await third;
    expect(lock.waiting).toBe(0);
    releaseThird();
    expect({ waiting: lock.waiting, held: lock.held }).toEqual({ waiting: 0, held: false });
  });

  it("is the PGlite database's pool statistics, with queries queued behind a transaction", async () => {
    const database = await openTestDatabase('pglite');
    try {
      expect(database.poolStats()).toEqual({ max: 1, open: 1, idle: 1, waiting: 0 });
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const transaction = database.db.transaction().execute(async () => {
        inside();
        await finished;
      });
      await entered;
      const queued = [database.ping(), database.ping()];
      // The pings reach the queue once Kysely has asked for the session.
      await new Promise((resolve) => setImmediate(resolve));
      expect(database.poolStats()).toEqual({ max: 1, open: 1, idle: 0, waiting: 2 });
      finish();
      await transaction;
      expect(await Promise.all(queued)).toEqual([true, true]);
      expect(database.poolStats()).toEqual({ max: 1, open: 1, idle: 1, waiting: 0 });
    } finally {
      await database.dispose();
    }
  }, 60_000);
});
