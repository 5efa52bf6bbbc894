import { describe, expect, it } from 'vitest';
import { assertDraft, assertItemCount, formatDeliveryNumber, issueDate } from '../../src/domain/delivery-rules.js';

describe('delivery rules', () => {
  it('lets a draft change and refuses an issued delivery, naming it', () => {
    expect(() => assertDraft({ id: 5, status: 'draft' })).not.toThrow();
    let failure: unknown;
    try {
      assertDraft({ id: 5, status: 'issued' });
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ status: 409, code: 'already_issued' });
    expect((failure as Error).message).toContain('5');
  });

  it('needs 1 to 500 items to issue, 0 to 500 for a draft', () => {
    expect(() => assertItemCount(0, false)).not.toThrow();
    expect(() => assertItemCount(500, true)).not.toThrow();
    expect(() => assertItemCount(0, true)).toThrow(expect.objectContaining({ status: 400, details: expect.objectContaining({ field: 'items' }) }));
    expect(() => assertItemCount(501, false)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it("dates an issue with the request's date, else the draft's, else today in UTC", () => {
    const lateEvening = new Date('2026-05-01T23:30:00-05:00'); // already 2 May in UTC
    expect(issueDate('2026-06-01', '2026-05-15', lateEvening)).toBe('2026-06-01');
    expect(issueDate(undefined, '2026-05-15', lateEvening)).toBe('2026-05-15');
    expect(issueDate(undefined, null, lateEvening)).toBe('2026-05-02');
  });

  it('numbers deliveries LS- plus six digits', () => {
    expect(formatDeliveryNumber(7)).toBe('LS-000007');
  });
});
