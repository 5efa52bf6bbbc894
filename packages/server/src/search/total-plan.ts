// How a search finds its exact total: as the sum of the account's invoice counts by (status, currency)
// that the database keeps (migration 0007), or by counting the matching invoices. A sum of kept counts
// answers exactly the criteria that select whole groups: equalities, inequalities and lists of
// statuses and currencies. Any other criterion splits a group, and only a count can tell how.
import type { ParsedCriterion } from '@invoice-api/contract';

export type TotalPlan = 'sum of kept counts' | 'count';

/** The columns of invoice_counts besides the account: the fields whose criteria select whole groups. */
export type KeptCountField = 'status' | 'currency';
/** The operators that compare a whole group's value: a group matches entirely or not at all. */
export type KeptCountOperator = '=' | '!=' | 'in';

const keptCountFields: ReadonlySet<string> = new Set<KeptCountField>(['status', 'currency']);
const keptCountOperators: ReadonlySet<string> = new Set<KeptCountOperator>(['=', '!=', 'in']);

/** A criterion on a kept count's column with an operator that selects whole groups. */
export function selectsWholeGroups(
  criterion: Pick<ParsedCriterion, 'field' | 'operator'>,
): criterion is Pick<ParsedCriterion, 'field' | 'operator'> & { field: KeptCountField; operator: KeptCountOperator } {
  return keptCountFields.has(criterion.field) && keptCountOperators.has(criterion.operator);
}

/** The sum of kept counts when every criterion selects whole groups (no criteria: every group); a count otherwise. */
export function totalPlan(criteria: ReadonlyArray<Pick<ParsedCriterion, 'field' | 'operator'>>): TotalPlan {
  return criteria.every(selectsWholeGroups) ? 'sum of kept counts' : 'count';
}
