import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  compareDates,
  dayLabel,
  dayOfWeek,
  daysBetween,
  formatDate,
  formatDateRange,
  formatReturnDate,
  fromDayNumber,
  isIsoDate,
  isWeekend,
  toDayNumber,
  todayInTimeZone,
} from './calendar.js';

describe('the process time zone', () => {
  it('is the one this run asked for (UTC unless TZ is set)', () => {
    const zone = process.env.TZ;
    expect(zone).toBeDefined();
    // Local clock time must match the zone's clock time, in winter and in summer.
    for (const instant of [new Date('2025-01-15T12:34:00Z'), new Date('2025-07-15T12:34:00Z')]) {
      const local = `${String(instant.getHours()).padStart(2, '0')}:${String(instant.getMinutes()).padStart(2, '0')}`;
      const inZone = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(instant);
      expect(local).toBe(inZone);
    }
  });
});

describe('isIsoDate', () => {
  it.each(['2025-01-01', '2024-02-29', '2028-02-29', '2000-02-29', '2025-12-31', '0099-03-01'])(
    'accepts %s',
    (value) => {
      expect(isIsoDate(value)).toBe(true);
    },
  );

  it.each([
    '2025-02-29',
    '1900-02-29',
    '2025-13-01',
    '2025-00-10',
    '2025-04-31',
    '2025-01-00',
    '2025-1-01',
    '2025-01-01T00:00:00Z',
    ' 2025-01-01',
    '',
    'tomorrow',
  ])('rejects %j', (value) => {
    expect(isIsoDate(value)).toBe(false);
  });

  it('rejects values that are not strings', () => {
    expect(isIsoDate(null)).toBe(false);
    expect(isIsoDate(undefined)).toBe(false);
    expect(isIsoDate(20250101)).toBe(false);
    expect(isIsoDate(new Date())).toBe(false);
  });
});

describe('day numbers', () => {
  it('count days from 1970-01-01', () => {
    expect(toDayNumber('1970-01-01')).toBe(0);
    expect(toDayNumber('1970-01-02')).toBe(1);
    expect(toDayNumber('1969-12-31')).toBe(-1);
    expect(toDayNumber('2000-03-01')).toBe(11_017);
  });

  it('round-trip through fromDayNumber for every day of four centuries', () => {
    fc.assert(
      fc.property(fc.integer({ min: toDayNumber('1800-01-01'), max: toDayNumber('2200-12-31') }), (n) => {
        const date = fromDayNumber(n);
        expect(isIsoDate(date)).toBe(true);
        expect(toDayNumber(date)).toBe(n);
      }),
    );
  });

  it('agree with Date.UTC', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          expect(toDayNumber(iso)).toBe(Math.floor(d.getTime() / 86_400_000));
        },
      ),
    );
  });
});

describe('addDays', () => {
  it.each([
    ['2025-01-31', 1, '2025-02-01'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2025-04-30', 1, '2025-05-01'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2025-12-30', 3, '2026-01-02'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2025-03-01', -1, '2025-02-28'],
    ['2028-03-01', -1, '2028-02-29'],
    ['2025-06-15', 0, '2025-06-15'],
    ['2025-01-01', 365, '2026-01-01'],
    ['2028-01-01', 366, '2029-01-01'],
  ])('%s + %i days is %s', (date, n, expected) => {
    expect(addDays(date, n)).toBe(expected);
  });

  it('crosses the US daylight-saving changes one calendar day at a time', () => {
    // 2025-03-09 and 2025-11-02 are the Sundays the US clocks change.
    expect(addDays('2025-03-08', 1)).toBe('2025-03-09');
    expect(addDays('2025-03-09', 1)).toBe('2025-03-10');
    expect(addDays('2025-03-07', 3)).toBe('2025-03-10');
    expect(addDays('2025-11-01', 1)).toBe('2025-11-02');
    expect(addDays('2025-11-02', 1)).toBe('2025-11-03');
    expect(addDays('2025-10-31', 3)).toBe('2025-11-03');
  });

  it('throws a RangeError for a date that does not exist', () => {
    expect(() => addDays('2025-02-30', 1)).toThrow(new RangeError('Invalid date'));
  });

  it('is undone by the opposite shift', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20_000, max: 40_000 }),
        fc.integer({ min: -1000, max: 1000 }),
        (n, k) => {
          const date = fromDayNumber(n);
          expect(addDays(addDays(date, k), -k)).toBe(date);
          expect(daysBetween(date, addDays(date, k))).toBe(k);
        },
      ),
    );
  });
});

describe('dayOfWeek and isWeekend', () => {
  it.each([
    ['2025-11-23', 0],
    ['2025-11-24', 1],
    ['2025-11-25', 2],
    ['2025-11-26', 3],
    ['2025-11-27', 4],
    ['2025-11-28', 5],
    ['2025-11-29', 6],
    ['2028-02-29', 2],
    ['2025-03-09', 0],
    ['2025-11-02', 0],
    ['2026-01-01', 4],
  ])('%s is day %i', (date, day) => {
    expect(dayOfWeek(date)).toBe(day);
  });

  it('calls only Saturday and Sunday the weekend', () => {
    expect(['2025-11-22', '2025-11-23'].map(isWeekend)).toEqual([true, true]);
    expect(['2025-11-24', '2025-11-25', '2025-11-26', '2025-11-27', '2025-11-28'].map(isWeekend)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('compareDates and daysBetween', () => {
  it('orders dates', () => {
    expect(compareDates('2025-01-01', '2025-01-02')).toBe(-1);
    expect(compareDates('2025-01-02', '2025-01-02')).toBe(0);
    expect(compareDates('2026-01-01', '2025-12-31')).toBe(1);
    expect(['2026-01-01', '2025-02-01', '2025-12-31'].sort(compareDates)).toEqual([
      '2025-02-01',
      '2025-12-31',
      '2026-01-01',
    ]);
  });

  it('counts whole days, across a leap day and DST changes', () => {
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2025-02-28', '2025-03-01')).toBe(1);
    expect(daysBetween('2025-03-08', '2025-03-10')).toBe(2);
    expect(daysBetween('2025-11-01', '2025-11-03')).toBe(2);
    expect(daysBetween('2026-01-01', '2025-12-31')).toBe(-1);
  });
});

describe('todayInTimeZone', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the clock in the practice zone, not the process zone', () => {
    vi.useFakeTimers();
    // 03:30 UTC on Nov 24 is still the evening of Nov 23 in New York and Los Angeles.
    vi.setSystemTime(new Date('2025-11-24T03:30:00Z'));
    expect(todayInTimeZone('America/New_York')).toBe('2025-11-23');
    expect(todayInTimeZone('America/Los_Angeles')).toBe('2025-11-23');
    expect(todayInTimeZone('UTC')).toBe('2025-11-24');
    expect(todayInTimeZone('Pacific/Auckland')).toBe('2025-11-24');
    expect(todayInTimeZone('Asia/Kolkata')).toBe('2025-11-24');
  });

  it('turns over at local midnight on the day the clocks spring forward and fall back', () => {
    // New York: 2025-03-09 00:00 EST is 05:00 UTC; 2025-11-02 00:00 EDT is 04:00 UTC.
    expect(todayInTimeZone('America/New_York', new Date('2025-03-09T04:59:59Z'))).toBe('2025-03-08');
    expect(todayInTimeZone('America/New_York', new Date('2025-03-09T05:00:00Z'))).toBe('2025-03-09');
    expect(todayInTimeZone('America/New_York', new Date('2025-03-10T03:59:59Z'))).toBe('2025-03-09');
    expect(todayInTimeZone('America/New_York', new Date('2025-03-10T04:00:00Z'))).toBe('2025-03-10');
    expect(todayInTimeZone('America/New_York', new Date('2025-11-02T03:59:59Z'))).toBe('2025-11-01');
    expect(todayInTimeZone('America/New_York', new Date('2025-11-02T04:00:00Z'))).toBe('2025-11-02');
    expect(todayInTimeZone('America/New_York', new Date('2025-11-03T04:59:59Z'))).toBe('2025-11-02');
    expect(todayInTimeZone('America/New_York', new Date('2025-11-03T05:00:00Z'))).toBe('2025-11-03');
  });

  it('handles the new year and half-hour zones', () => {
    expect(todayInTimeZone('Pacific/Auckland', new Date('2025-12-31T11:00:00Z'))).toBe('2026-01-01');
    expect(todayInTimeZone('America/New_York', new Date('2026-01-01T04:59:00Z'))).toBe('2025-12-31');
    expect(todayInTimeZone('Asia/Kolkata', new Date('2025-06-30T18:29:00Z'))).toBe('2025-06-30');
    expect(todayInTimeZone('Asia/Kolkata', new Date('2025-06-30T18:30:00Z'))).toBe('2025-07-01');
  });

  it('rejects an unknown zone', () => {
    expect(() => todayInTimeZone('Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('dayLabel', () => {
  it("says 'Today' and 'Tomorrow', then 'Mon, Nov 23' style", () => {
    const today = '2025-11-21';
    expect(dayLabel('2025-11-21', today)).toBe('Today');
    expect(dayLabel('2025-11-22', today)).toBe('Tomorrow');
    expect(dayLabel('2025-11-23', today)).toBe('Sun, Nov 23');
    expect(dayLabel('2025-11-24', today)).toBe('Mon, Nov 24');
    expect(dayLabel('2025-11-20', today)).toBe('Thu, Nov 20');
  });

  it('counts Tomorrow across month and year ends', () => {
    expect(dayLabel('2026-01-01', '2025-12-31')).toBe('Tomorrow');
    expect(dayLabel('2028-02-29', '2028-02-28')).toBe('Tomorrow');
    expect(dayLabel('2028-03-01', '2028-02-28')).toBe('Wed, Mar 1');
  });

  it('labels the next fortnight the same in every zone once today is known', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-08T23:30:00Z'));
    const today = todayInTimeZone('America/New_York');
    vi.useRealTimers();
    expect(today).toBe('2025-03-08');
    const labels = Array.from({ length: 4 }, (_, i) => dayLabel(addDays(today, i), today));
    expect(labels).toEqual(['Today', 'Tomorrow', 'Mon, Mar 10', 'Tue, Mar 11']);
  });
});

describe('formatDate and formatReturnDate', () => {
  it('writes a calendar date as it is, in any process zone', () => {
    expect(formatDate('2025-11-23')).toBe('Nov 23, 2025');
    expect(formatDate('2025-01-01')).toBe('Jan 1, 2025');
    expect(formatDate('2028-02-29')).toBe('Feb 29, 2028');
  });

  it('reads the date part of an ISO date-time as written', () => {
    expect(formatDate('2025-11-23T23:30:00-05:00')).toBe('Nov 23, 2025');
    expect(formatDate('2025-11-23T00:15:00Z')).toBe('Nov 23, 2025');
  });

  it('formats a Date in the given zone', () => {
    const instant = new Date('2025-11-24T03:30:00Z');
    expect(formatDate(instant)).toBe('Nov 24, 2025');
    expect(formatDate(instant, 'America/New_York')).toBe('Nov 23, 2025');
  });

  it.each([null, undefined, '', 'soon', '2025-02-30', '2025-11-23Tnonsense', new Date(Number.NaN)])(
    "shows 'Invalid date' for %j",
    (value) => {
      expect(formatDate(value)).toBe('Invalid date');
    },
  );

  it("shows 'No return date' when the return date is missing", () => {
    expect(formatReturnDate(null)).toBe('No return date');
    expect(formatReturnDate(undefined)).toBe('No return date');
    expect(formatReturnDate('')).toBe('No return date');
    expect(formatReturnDate('2025-11-24')).toBe('Nov 24, 2025');
    expect(formatReturnDate('not a date')).toBe('Invalid date');
  });

  it('formats a test period', () => {
    expect(formatDateRange('2025-11-24', '2025-11-25')).toBe('Nov 24, 2025 – Nov 25, 2025');
    expect(formatDateRange(null, '2025-11-25')).toBe('Invalid date – Nov 25, 2025');
  });
});
