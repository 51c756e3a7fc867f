import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_TYPES } from '../enums.js';
import { addDays, dayOfWeek, daysBetween, fromDayNumber, isWeekend } from './calendar.js';
import { heldWindow, isValidStartDate, returnDateFor, testDates, testEndDate } from './testDates.js';

// Spec §5 and §9: 2-day tests end the day after the start, 3-day tests two days after; the kit
// comes back the day after the end, and a Friday, Saturday or Sunday return becomes Monday.
// Mon–Thu starts only; Mon/Tue only when the return date is not a weekend.

describe('testDates for each weekday as a start (week of Mon 2025-11-24)', () => {
  it.each([
    // start, weekday, 2-day end, 2-day return, 3-day end, 3-day return
    ['2025-11-24', 'Mon', '2025-11-25', '2025-11-26', '2025-11-26', '2025-11-27'],
    ['2025-11-25', 'Tue', '2025-11-26', '2025-11-27', '2025-11-27', '2025-12-01'],
    ['2025-11-26', 'Wed', '2025-11-27', '2025-12-01', '2025-11-28', '2025-12-01'],
    ['2025-11-27', 'Thu', '2025-11-28', '2025-12-01', '2025-11-29', '2025-12-01'],
    ['2025-11-28', 'Fri', '2025-11-29', '2025-12-01', '2025-11-30', '2025-12-01'],
    ['2025-11-29', 'Sat', '2025-11-30', '2025-12-01', '2025-12-01', '2025-12-02'],
    ['2025-11-30', 'Sun', '2025-12-01', '2025-12-02', '2025-12-02', '2025-12-03'],
  ])('%s (%s)', (start, _weekday, end2, return2, end3, return3) => {
    expect(testDates(start, '2-day')).toEqual({ startDate: start, endDate: end2, returnDate: return2 });
    expect(testDates(start, '3-day')).toEqual({ startDate: start, endDate: end3, returnDate: return3 });
  });
});

describe('return dates move off Friday, Saturday and Sunday', () => {
  it.each([
    ['2025-11-27', 'Thu end -> Fri', '2025-12-01'],
    ['2025-11-28', 'Fri end -> Sat', '2025-12-01'],
    ['2025-11-29', 'Sat end -> Sun', '2025-12-01'],
    ['2025-11-30', 'Sun end -> Mon', '2025-12-01'],
    ['2025-11-24', 'Mon end -> Tue', '2025-11-25'],
    ['2025-11-25', 'Tue end -> Wed', '2025-11-26'],
    ['2025-11-26', 'Wed end -> Thu', '2025-11-27'],
  ])('end %s (%s) returns %s', (end, _case, expected) => {
    expect(returnDateFor(end)).toBe(expected);
    expect(dayOfWeek(returnDateFor(end))).not.toBe(5);
  });
});

describe('month ends, the year end and a leap day', () => {
  it.each([
    // Thursday 2025-01-30: the test runs into February.
    ['2025-01-30', '2-day', '2025-01-31', '2025-02-03'],
    ['2025-01-30', '3-day', '2025-02-01', '2025-02-03'],
    // Tuesday 2025-04-29: end or return in May.
    ['2025-04-29', '2-day', '2025-04-30', '2025-05-01'],
    ['2025-04-29', '3-day', '2025-05-01', '2025-05-05'],
    // Tuesday 2025-12-30 and Wednesday 2025-12-31: into the new year.
    ['2025-12-30', '2-day', '2025-12-31', '2026-01-01'],
    ['2025-12-30', '3-day', '2026-01-01', '2026-01-05'],
    ['2025-12-31', '2-day', '2026-01-01', '2026-01-05'],
    ['2025-12-31', '3-day', '2026-01-02', '2026-01-05'],
    // Monday 2028-02-28 and Tuesday 2028-02-29 (leap day).
    ['2028-02-28', '2-day', '2028-02-29', '2028-03-01'],
    ['2028-02-28', '3-day', '2028-03-01', '2028-03-02'],
    ['2028-02-29', '2-day', '2028-03-01', '2028-03-02'],
    ['2028-02-29', '3-day', '2028-03-02', '2028-03-06'],
    // Thursday 2025-02-27 in a common year: no Feb 29.
    ['2025-02-27', '2-day', '2025-02-28', '2025-03-03'],
    ['2025-02-27', '3-day', '2025-03-01', '2025-03-03'],
  ] as const)('%s %s ends %s and returns %s', (start, type, end, ret) => {
    expect(testDates(start, type)).toEqual({ startDate: start, endDate: end, returnDate: ret });
  });
});

describe('US daylight-saving weeks (clocks change Sun 2025-03-09 and Sun 2025-11-02)', () => {
  it.each([
    ['2025-03-05', '3-day', '2025-03-07', '2025-03-10'],
    ['2025-03-06', '2-day', '2025-03-07', '2025-03-10'],
    ['2025-03-06', '3-day', '2025-03-08', '2025-03-10'],
    ['2025-03-10', '2-day', '2025-03-11', '2025-03-12'],
    ['2025-03-10', '3-day', '2025-03-12', '2025-03-13'],
    ['2025-10-28', '3-day', '2025-10-30', '2025-11-03'],
    ['2025-10-30', '2-day', '2025-10-31', '2025-11-03'],
    ['2025-10-30', '3-day', '2025-11-01', '2025-11-03'],
    ['2025-11-03', '2-day', '2025-11-04', '2025-11-05'],
  ] as const)('%s %s ends %s and returns %s', (start, type, end, ret) => {
    expect(testDates(start, type)).toEqual({ startDate: start, endDate: end, returnDate: ret });
  });
});

describe('isValidStartDate', () => {
  it.each([
    ['2025-11-24', 'Mon', true],
    ['2025-11-25', 'Tue', true],
    ['2025-11-26', 'Wed', true],
    ['2025-11-27', 'Thu', true],
    ['2025-11-28', 'Fri', false],
    ['2025-11-29', 'Sat', false],
    ['2025-11-30', 'Sun', false],
  ])('%s (%s) is %s for both test types', (start, _weekday, valid) => {
    expect(isValidStartDate(start, '2-day')).toBe(valid);
    expect(isValidStartDate(start, '3-day')).toBe(valid);
  });

  it('checks Monday and Tuesday on the computed return date, which is never a weekend', () => {
    // Tuesday 3-day: the raw return would be Friday; moved to Monday, so the start stays valid.
    expect(testDates('2025-11-25', '3-day').returnDate).toBe('2025-12-01');
    expect(isValidStartDate('2025-11-25', '3-day')).toBe(true);
    expect(isValidStartDate('2025-12-30', '3-day')).toBe(true);
    expect(isValidStartDate('2028-02-29', '3-day')).toBe(true);
  });

  it('accepts the DST-week and year-end Wednesdays and Thursdays, and refuses their Fridays', () => {
    expect(isValidStartDate('2025-03-06', '3-day')).toBe(true);
    expect(isValidStartDate('2025-03-07', '2-day')).toBe(false);
    expect(isValidStartDate('2025-10-30', '3-day')).toBe(true);
    expect(isValidStartDate('2025-10-31', '3-day')).toBe(false);
    expect(isValidStartDate('2025-12-31', '2-day')).toBe(true);
    expect(isValidStartDate('2026-01-02', '2-day')).toBe(false);
  });

  it('is false for text that is not a date', () => {
    expect(isValidStartDate('', '2-day')).toBe(false);
    expect(isValidStartDate('2025-02-30', '2-day')).toBe(false);
    expect(isValidStartDate('next monday', '3-day')).toBe(false);
  });
});

describe('testDates errors', () => {
  it('throws a RangeError without echoing the input', () => {
    expect(() => testDates('2025-13-01', '2-day')).toThrow(new RangeError('Invalid date'));
  });
});

describe('heldWindow', () => {
  it('runs from the start through the maintenance day after the end', () => {
    expect(heldWindow({ startDate: '2025-11-24', endDate: '2025-11-25' })).toEqual({
      from: '2025-11-24',
      to: '2025-11-26',
    });
    expect(heldWindow(testDates('2025-12-31', '3-day'))).toEqual({ from: '2025-12-31', to: '2026-01-03' });
    expect(heldWindow(testDates('2028-02-27', '2-day'))).toEqual({ from: '2028-02-27', to: '2028-02-29' });
  });
});

describe('properties over every start date 1990–2100', () => {
  const anyDate = fc.integer({ min: 7305, max: 47_482 }).map(fromDayNumber);
  const anyTestType = fc.constantFrom(...TEST_TYPES);

  it('a return date is never a weekend, nor a Friday', () => {
    fc.assert(
      fc.property(anyDate, anyTestType, (start, type) => {
        const { returnDate } = testDates(start, type);
        expect(isWeekend(returnDate)).toBe(false);
        expect(dayOfWeek(returnDate)).not.toBe(5);
      }),
      { numRuns: 2000 },
    );
  });

  it('the end is 1 or 2 days after the start, and the return 1 to 4 days after the end', () => {
    fc.assert(
      fc.property(anyDate, anyTestType, (start, type) => {
        const { endDate, returnDate } = testDates(start, type);
        expect(daysBetween(start, endDate)).toBe(type === '2-day' ? 1 : 2);
        expect(testEndDate(start, type)).toBe(endDate);
        const gap = daysBetween(endDate, returnDate);
        expect(gap).toBeGreaterThanOrEqual(1);
        expect(gap).toBeLessThanOrEqual(4);
        // The return is the first weekday from Monday to Thursday on or after end + 1.
        for (let d = 1; d < gap; d++) expect([0, 5, 6]).toContain(dayOfWeek(addDays(endDate, d)));
      }),
      { numRuns: 2000 },
    );
  });

  it('valid start days are exactly Monday to Thursday', () => {
    fc.assert(
      fc.property(anyDate, anyTestType, (start, type) => {
        expect(isValidStartDate(start, type)).toBe([1, 2, 3, 4].includes(dayOfWeek(start)));
      }),
      { numRuns: 2000 },
    );
  });
});
