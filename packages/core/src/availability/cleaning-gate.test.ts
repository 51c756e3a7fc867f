import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AVAILABILITY_RANGE_DAYS } from '../constants.js';
import { addDays } from '../dates/calendar.js';
import { testDates } from '../dates/testDates.js';
import { isKitReadyFor } from '../inventory.js';
import { AVAILABILITY_MAX_DAYS, DailyAvailabilityQuery } from '../schemas/availability.js';
import type { Booking, Kit } from '../schemas/booking.js';
import { dateNear, kitsArb, rangeArb, shuffledBookingsArb } from '../test-support/arbitraries.js';
import { dailyAvailability } from './engine.js';

// Today is Mon 2025-11-24. Kit 2 came back and waits for its cleaning, due Wed 11-26.
const today = '2025-11-24';
const fleet: Kit[] = [
  { id: 1, kitId: 'SOM-001', type: 'Somfit' },
  { id: 2, kitId: 'SOM-002', type: 'Somfit', status: 'cleaning' },
  { id: 3, kitId: 'SOM-003', type: 'Somfit', status: 'maintenance' },
  { id: 4, kitId: 'ZM-004', type: 'Z-Machine', status: 'lost' },
  { id: 5, kitId: 'ZM-005', type: 'Z-Machine', status: 'retired' },
];
const range = { from: today, days: 5, today };

function units(kits: Kit[], bookings: Booking[], cleaningDueOn?: ReadonlyMap<number, string | null>) {
  return dailyAvailability({ kits, bookings, patients: [], cleaningDueOn }, range).map(
    (d) => d.availableUnits,
  );
}

describe('dailyAvailability with the cleaning gate', () => {
  it('keeps a kit awaiting cleaning out through its due day, then counts it again', () => {
    expect(units(fleet, [], new Map([[2, '2025-11-26']]))).toEqual([1, 1, 1, 2, 2]);
  });

  it('keeps an overdue kit out on every day: nobody knows when it will be ready', () => {
    expect(units(fleet, [], new Map([[2, '2025-11-20']]))).toEqual([1, 1, 1, 1, 1]);
  });

  it('treats a kit awaiting cleaning with no due date as due today', () => {
    expect(units(fleet, [], new Map())).toEqual([1, 2, 2, 2, 2]);
    expect(units(fleet, [], new Map([[2, null]]))).toEqual([1, 2, 2, 2, 2]);
  });

  it('never counts kits in maintenance, lost or retired, gate or not', () => {
    const allOut = fleet.map((k) => (k.id === 2 ? { ...k, status: 'available' as const } : k));
    expect(units(allOut, [], new Map())).toEqual([2, 2, 2, 2, 2]);
  });

  it('counts a kit once on days it is both awaiting cleaning and held by a booking', () => {
    const next: Booking = {
      id: 1,
      patientId: 1,
      kitId: 2,
      kitType: 'Somfit',
      status: 'confirmed',
      notes: null,
      testType: '2-day',
      ...testDates('2025-11-25', '2-day'),
    };
    // The booking holds kit 2 from 11-25 to 11-27 (maintenance day); the gate 11-24..11-26.
    expect(units(fleet, [next], new Map([[2, '2025-11-26']]))).toEqual([1, 1, 1, 1, 2]);
  });

  it('leaves the counts as they were when no cleaning dates are given', () => {
    expect(units(fleet, [])).toEqual([2, 2, 2, 2, 2]);
  });

  it('agrees with isKitReadyFor on every day for any due date', () => {
    fc.assert(
      fc.property(kitsArb, shuffledBookingsArb, rangeArb, dateNear(), (kits, bookings, r, due) => {
        const dueOn = new Map(kits.filter((k) => k.status === 'cleaning').map((k) => [k.id, due]));
        const gated = dailyAvailability({ kits, bookings, patients: [], cleaningDueOn: dueOn }, r);
        const plain = dailyAvailability({ kits, bookings, patients: [], cleaningDueOn: undefined }, r);
        for (const [d, day] of gated.entries()) {
          const date = addDays(r.from, d);
          const heldToday = new Set(
            bookings
              .filter(
                (b) =>
                  b.kitId !== null &&
                  ['pending', 'confirmed', 'picked_up'].includes(b.status) &&
                  b.startDate <= b.endDate &&
                  b.startDate <= date &&
                  date <= addDays(b.endDate, 1),
              )
              .map((b) => b.kitId),
          );
          const gatedOut = kits.filter(
            (k) =>
              k.status === 'cleaning' &&
              !heldToday.has(k.id) &&
              !isKitReadyFor({ status: k.status, cleaningDueOn: due }, date, r.today),
          ).length;
          expect(day.availableUnits).toBe((plain[d]?.availableUnits ?? 0) - gatedOut);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('DailyAvailabilityQuery', () => {
  it('defaults to the 14-day range and accepts 1 to 60 days', () => {
    expect(DailyAvailabilityQuery.parse({})).toEqual({ days: AVAILABILITY_RANGE_DAYS });
    expect(DailyAvailabilityQuery.parse({ days: '1' })).toEqual({ days: 1 });
    expect(DailyAvailabilityQuery.parse({ days: String(AVAILABILITY_MAX_DAYS) })).toEqual({ days: 60 });
  });

  it('refuses zero, too many, fractions and words', () => {
    for (const days of ['0', '61', '2.5', 'ten', '']) {
      expect(DailyAvailabilityQuery.safeParse({ days }).success).toBe(false);
    }
  });
});
