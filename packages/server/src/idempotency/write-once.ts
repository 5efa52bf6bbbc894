// A handler's write with its Idempotency-Key, in one transaction: claim the key (first statement),
// write, record the answer (last statement), commit. A crash or a failure anywhere rolls back the
// write and the key together; an error answer, or one the spec does not document, is not recorded,
// so its retry runs again.
import type { Kysely } from 'kysely';
import type { RequestContext } from '../context.js';
import type { DatabaseSchema } from '../db/schema.js';
import { inSpan } from '../telemetry/spans.js';
import { claimKey, recordAnswer, type WriteAnswer } from './store.js';

export function writeOnce<A extends WriteAnswer>(context: RequestContext, work: (trx: Kysely<DatabaseSchema>) => Promise<A>): Promise<A> {
  const claim = context.idempotency;
  return context.db.db.transaction().execute(async (trx) => {
    // The key's lock across instances (PostgreSQL's advisory lock; PGlite's session): its own span.
    if (claim !== undefined) await inSpan('idempotency.claim', {}, () => claimKey(trx, claim));
    const answer = await work(trx);
    if (claim !== undefined) {
      // Only an answer the spec documents is stored: a replay is sent as stored.
      context.checkAnswer?.(answer.status, answer.body);
      await recordAnswer(trx, claim, answer);
    }
    return answer;
  });
}
