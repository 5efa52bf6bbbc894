// The deprecation keywords (`deprecated: true` with `x-deprecated-since` and `x-sunset`) as the generator
// reads them: checked at generate time, naming the place, so that a half-written deprecation never
// reaches the service's headers, the docs or spec:diff.
import { describe, expect, it } from 'vitest';
import { dayToEpochSeconds, deprecationNotice } from '../../../scripts/lib/deprecation.mjs';
import { operationTable as buildTable } from '../../../scripts/lib/operation-table.mjs';
import { publishedSpec } from '../../../scripts/lib/published-spec.mjs';
import { loadSpec, operationTable } from '../src/index.js';

function withListUsers(fields: Record<string, unknown>) {
  const spec = structuredClone(loadSpec());
  Object.assign(spec.paths['/api/v1/users']?.get as Record<string, unknown>, fields);
  return spec;
}

describe('deprecation in the operation table', () => {
  it('the real spec deprecates nothing today', () => {
    expect(Object.values(operationTable).filter((entry) => entry.deprecation !== null)).toEqual([]);
  });

  it('reads days as 00:00:00 UTC and refuses what is not a day of the calendar', () => {
    expect(dayToEpochSeconds('2027-06-30')).toBe(Date.UTC(2027, 5, 30) / 1000);
    for (const bad of ['2027-02-30', '2027-13-01', '27-06-30', '2027-06-30T00:00:00Z', 20270630, undefined]) expect(dayToEpochSeconds(bad)).toBeUndefined();
  });

  it('refuses a deprecation without both dates, with a malformed date, or with the sunset first, naming the operation', () => {
    expect(() => buildTable(withListUsers({ deprecated: true, 'x-sunset': '2027-06-30' }))).toThrow(/listUsers.*x-deprecated-since/);
    expect(() => buildTable(withListUsers({ deprecated: true, 'x-deprecated-since': '2026-11-01' }))).toThrow(/listUsers.*x-sunset/);
    expect(() => buildTable(withListUsers({ deprecated: true, 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-02-30' }))).toThrow(
      /listUsers.*x-sunset as a YYYY-MM-DD day, got "2027-02-30"/,
    );
    expect(() => buildTable(withListUsers({ deprecated: true, 'x-deprecated-since': '2027-11-01', 'x-sunset': '2027-06-30' }))).toThrow(
      /x-sunset 2027-06-30 is before x-deprecated-since 2027-11-01/,
    );
  });

  it('refuses the dates on something not marked deprecated', () => {
    expect(() => buildTable(withListUsers({ 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-06-30' }))).toThrow(/listUsers.*deprecated: true/);
    expect(() => deprecationNotice({ deprecated: false, 'x-sunset': '2027-06-30' }, 'here')).toThrow(/^here: /);
  });

  it('finds deprecated request properties nested in arrays and oneOf branches, by their path', () => {
    const spec = structuredClone(loadSpec());
    const status = ((spec.components?.schemas ?? {}) as Record<string, { properties: Record<string, object> }>).StatusCriterion;
    Object.assign(status?.properties.operator ?? {}, { deprecated: true, 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-06-30' });
    const paths = buildTable(spec).searchInvoices?.deprecation?.requestProperties.map((property) => property.path.join('.'));
    expect(paths).toEqual(['criteria.*.operator']);
  });

  it('the published spec states the dates in the description, and keeps no x- keyword inside schemas', () => {
    const spec = withListUsers({ deprecated: true, 'x-deprecated-since': '2026-11-01', 'x-sunset': '2027-06-30' });
    const offset = ((spec.components?.schemas ?? {}) as Record<string, { properties: Record<string, { description?: string }> }>).InvoiceSearchRequest
      ?.properties.offset;
    const ownDescription = offset?.description?.trimEnd() ?? '';
    Object.assign(offset ?? {}, { deprecated: true, 'x-deprecated-since': '2026-12-01', 'x-sunset': '2027-09-30' });
    const published = publishedSpec(spec);
    const paths = published.paths as Record<string, { get: { description: string } }>;
    expect(paths['/api/v1/users']?.get.description).toMatch(/\*\*Deprecated\*\* since 2026-11-01\. \*\*Sunset: 2027-06-30\*\*/);
    const property = published.components.schemas.InvoiceSearchRequest?.properties?.offset ?? {};
    expect(ownDescription).not.toBe('');
    expect(String(property.description).startsWith(`${ownDescription}\n\n**Deprecated** since 2026-12-01. **Sunset: 2027-09-30**`)).toBe(true);
    expect(property.deprecated).toBe(true);
    expect(Object.keys(property).filter((key) => key.startsWith('x-'))).toEqual([]);
  });
});
