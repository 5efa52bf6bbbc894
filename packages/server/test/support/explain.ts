// The plan of a statement the service runs, read from PostgreSQL's (or PGlite's) EXPLAIN in JSON:
// tests hold plans to what they must (or must not) read, never to timings.
import { CompiledQuery } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** The fields of an EXPLAIN (FORMAT JSON) node the tests read; the ANALYZE ones only with `analyze`. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  /** The name the statement gives the relation (`from invoices as present`). */
  Alias?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The plan of `statement` with its own parameters; with `analyze`, run, and with actual row counts. */
export async function explainPlan(database: Database, statement: CompiledQuery, options: { analyze: boolean }): Promise<PlanNode> {
  const result = await database.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (${options.analyze ? 'analyze, ' : ''}format json) ${statement.sql}`, [...statement.parameters]),
  );
  // pg parses the json column; PGlite returns it as text.
  const raw = Object.values(result.rows[0] ?? {})[0];
  const [explained] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
  if (explained === undefined) throw new Error('EXPLAIN returned no plan.');
  return explained.Plan;
}

/** Every node of a plan, the root first. */
export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}
