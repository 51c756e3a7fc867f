import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dates/calendar.js';
import { heldWindow, testDates } from '../dates/testDates.js';
import { isHoldingStatus } from '../enums.js';
import { naiveAvailableKitsOfType, naiveDailyAvailability } from '../reference.js';
import type { Booking, Kit } from '../schemas/booking.js';
import type { Patient } from '../schemas/patient.js';
import {
  dateNear,
  kitsArb,
  kitTypeArb,
  patientsArb,
  rangeArb,
  shuffledBookingsArb,
  testTypeArb,
} from '../test-support/arbitraries.js';
import {
  availableKitsOfType,
  availableKitTypes,
  dailyAvailability,
  isKitFree,
  kitTypeAvailabilityByDate,
} from './engine.js';

let nextId = 1;
function booking(fields: Partial<Booking> & Pick<Booking, 'kitId' | 'startDate'>): Booking {
  const testType = fields.testType ?? '2-day';
  const dates = testDates(fields.startDate, testType);
  return {
    id: nextId++,
    patientId: 1,
    kitType: 'Somfit',
    status: 'confirmed',
    notes: null,
    ...dates,
    ...fields,
    testType,
  };
}

const kits: Kit[] = [
  { id: 3, kitId: 'SOM-003', type: 'Somfit', status: 'available' },
  { id: 1, kitId: 'SOM-001', type: 'Somfit' },
  { id: 2, kitId: 'SOM-002', type: 'Somfit', status: 'in_use' },
  { id: 4, kitId: 'SOM-004', type: 'Somfit', status: 'maintenance' },
  { id: 5, kitId: 'ZM-005', type: 'Z-Machine', status: 'cleaning' },
  { id: 6, kitId: 'ZM-006', type: 'Z-Machine', status: 'retired' },
  { id: 7, kitId: 'SV-007', type: 'SleepView', status: 'lost' },
];

describe('isKitFree', () => {
  // Kit 1 is out Mon 2025-11-24 to Tue 11-25 and in maintenance Wed 11-26.
  const bookings = [booking({ kitId: 1, startDate: '2025-11-24' })];

  it('is false for any new window that touches the held window, maintenance day included', () => {
    expect(isKitFree(1, bookings, '2025-11-24', '2-day')).toBe(false);
    expect(isKitFree(1, bookings, '2025-11-25', '2-day')).toBe(false);
    expect(isKitFree(1, bookings, '2025-11-26', '2-day')).toBe(false);
    // A new test's own maintenance day counts too: Sat 11-22 + 2-day holds until Mon 11-24.
    expect(isKitFree(1, bookings, '2025-11-22', '2-day')).toBe(false);
    expect(isKitFree(1, bookings, '2025-11-21', '3-day')).toBe(false);
  });

  it('is true the day after the maintenance day and for windows that end before the test', () => {
    expect(isKitFree(1, bookings, '2025-11-27', '2-day')).toBe(true);
    expect(isKitFree(1, bookings, '2025-11-27', '3-day')).toBe(true);
    expect(isKitFree(1, bookings, '2025-11-21', '2-day')).toBe(true);
    expect(isKitFree(1, bookings, '2025-11-20', '3-day')).toBe(true);
  });

  it('ignores other kits and bookings that hold nothing', () => {
    expect(isKitFree(2, bookings, '2025-11-24', '2-day')).toBe(true);
    const released = [
      booking({ kitId: 1, startDate: '2025-11-24', status: 'cancelled' }),
      booking({ kitId: 1, startDate: '2025-11-24', status: 'completed' }),
      booking({ kitId: null, startDate: '2025-11-24' }),
    ];
    expect(isKitFree(1, released, '2025-11-24', '2-day')).toBe(true);
  });

  it('counts pending, confirmed and picked-up bookings as holding', () => {
    for (const status of ['pending', 'confirmed', 'picked_up'] as const) {
      expect(
        isKitFree(1, [booking({ kitId: 1, startDate: '2025-11-24', status })], '2025-11-25', '2-day'),
      ).toBe(false);
    }
  });

  it('holds across a month end and the year end', () => {
    const yearEnd = [booking({ kitId: 1, startDate: '2025-12-30', testType: '3-day' })];
    // Held Dec 30 to Jan 1, maintenance Jan 2.
    expect(isKitFree(1, yearEnd, '2026-01-02', '2-day')).toBe(false);
    expect(isKitFree(1, yearEnd, '2026-01-03', '2-day')).toBe(true);
  });
});

describe('availableKitsOfType', () => {
  it('returns the free in-service kits of the type, sorted by id', () => {
    const result = availableKitsOfType('Somfit', kits, [], '2025-11-24', '2-day');
    expect(result.map((k) => k.kitId)).toEqual(['SOM-001', 'SOM-002', 'SOM-003']);
  });

  it('never offers a kit in maintenance, retired or lost', () => {
    expect(availableKitsOfType('Z-Machine', kits, [], '2025-11-24', '2-day').map((k) => k.id)).toEqual([5]);
    expect(availableKitsOfType('SleepView', kits, [], '2025-11-24', '2-day')).toEqual([]);
  });

  it('leaves out kits held on any day of the new window', () => {
    const bookings = [
      booking({ kitId: 1, startDate: '2025-11-24' }),
      booking({ kitId: 3, startDate: '2025-11-20' }),
    ];
    // Kit 3 is held Nov 20-22 (Thu-Sat), so it is free from Sun 11-23.
    expect(availableKitsOfType('Somfit', kits, bookings, '2025-11-24', '2-day').map((k) => k.id)).toEqual([
      2, 3,
    ]);
    expect(availableKitsOfType('Somfit', kits, bookings, '2025-11-20', '3-day').map((k) => k.id)).toEqual([
      1, 2,
    ]);
  });

  it('does not reorder the kits it was given', () => {
    const input = [...kits];
    availableKitsOfType('Somfit', input, [], '2025-11-24', '2-day');
    expect(input).toEqual(kits);
  });
});

describe('availableKitTypes', () => {
  it('lists the types with at least one free kit, in catalogue order', () => {
    expect(availableKitTypes(kits, [], '2025-11-24', '2-day')).toEqual(['Somfit', 'Z-Machine']);
    const bookings = [booking({ kitId: 5, startDate: '2025-11-24', kitType: 'Z-Machine' })];
    expect(availableKitTypes(kits, bookings, '2025-11-25', '2-day')).toEqual(['Somfit']);
  });
});

describe('dailyAvailability', () => {
  const patients: Patient[] = [
    { id: 1, name: 'Ada Example', email: 'a@example.test', phone: '1', leadSource: 'Direct' },
    { id: 2, name: 'Ben Example', email: 'b@example.test', phone: '2', leadSource: 'Direct' },
  ];
  const fleet: Kit[] = [
    { id: 1, kitId: 'SOM-001', type: 'Somfit' },
    { id: 2, kitId: 'SOM-002', type: 'Somfit' },
    { id: 3, kitId: 'ZM-003', type: 'Z-Machine' },
    { id: 4, kitId: 'ZM-004', type: 'Z-Machine', status: 'maintenance' },
  ];
  const bookings: Booking[] = [
    { ...booking({ kitId: 2, startDate: '2025-11-24', patientId: 2 }), id: 20 },
    { ...booking({ kitId: 1, startDate: '2025-11-24', testType: '3-day' }), id: 10 },
    { ...booking({ kitId: 3, startDate: '2025-11-25', status: 'cancelled', kitType: 'Z-Machine' }), id: 30 },
    { ...booking({ kitId: 99, startDate: '2025-11-25', patientId: 77 }), id: 40 },
    { ...booking({ kitId: 3, startDate: '2025-11-21', status: 'picked_up', kitType: 'Z-Machine' }), id: 50 },
  ];

  const days = dailyAvailability(
    { kits: fleet, bookings, patients },
    { from: '2025-11-23', days: 5, today: '2025-11-24' },
  );

  it('has one entry per day, labelled against today', () => {
    expect(days.map((d) => [d.date, d.label])).toEqual([
      ['2025-11-23', 'Sun, Nov 23'],
      ['2025-11-24', 'Today'],
      ['2025-11-25', 'Tomorrow'],
      ['2025-11-26', 'Wed, Nov 26'],
      ['2025-11-27', 'Thu, Nov 27'],
    ]);
  });

  it('counts in-service kits no booking holds, maintenance days included', () => {
    // 3 kits in service. Kit 3 held Fri 11-21..Sun 11-23 (maintenance). Kit 1 held 11-24..11-27.
    // Kit 2 held 11-24..11-26. The cancelled booking and the one on an unknown kit hold nothing.
    expect(days.map((d) => d.availableUnits)).toEqual([2, 1, 1, 1, 2]);
  });

  it('lists pickups and drop-offs by booking id with names and kit labels', () => {
    const monday = days[1];
    expect(monday?.pickups).toEqual([
      {
        id: 10,
        patientId: 1,
        patientName: 'Ada Example',
        testType: '3-day',
        kitType: 'Somfit',
        kitId: 'SOM-001',
        status: 'confirmed',
      },
      {
        id: 20,
        patientId: 2,
        patientName: 'Ben Example',
        testType: '2-day',
        kitType: 'Somfit',
        kitId: 'SOM-002',
        status: 'confirmed',
      },
    ]);
    // Booking 50 (Fri 11-21, 2-day) ends Sat and comes back Mon 11-24.
    expect(monday?.dropoffs).toEqual([
      { id: 50, patientId: 1, patientName: 'Ada Example', kitType: 'Z-Machine', kitId: 'ZM-003' },
    ]);
  });

  it("uses 'Unknown Patient' and 'Unknown Kit' and leaves cancelled bookings out", () => {
    const tuesday = days[2];
    expect(tuesday?.pickups.map((p) => [p.id, p.patientName, p.kitId])).toEqual([
      [40, 'Unknown Patient', 'Unknown Kit'],
    ]);
    expect(days[3]?.dropoffs.map((d) => d.id)).toEqual([20]);
    expect(days[4]?.dropoffs.map((d) => d.id)).toEqual([10, 40]);
  });

  it('returns nothing for zero days and rejects a bad start date', () => {
    expect(
      dailyAvailability(
        { kits: fleet, bookings, patients },
        { from: '2025-11-23', days: 0, today: '2025-11-23' },
      ),
    ).toEqual([]);
    expect(() =>
      dailyAvailability(
        { kits: fleet, bookings, patients },
        { from: '23/11/2025', days: 3, today: '2025-11-23' },
      ),
    ).toThrow(RangeError);
  });

  it('counts a kit once on days two of its bookings overlap', () => {
    const overlapping = [
      booking({ kitId: 1, startDate: '2025-11-24' }),
      booking({ kitId: 1, startDate: '2025-11-25' }),
    ];
    const result = dailyAvailability(
      { kits: fleet, bookings: overlapping, patients },
      { from: '2025-11-24', days: 4, today: '2025-11-24' },
    );
    expect(result.map((d) => d.availableUnits)).toEqual([2, 2, 2, 2]);
  });

  it('keeps the whole of a long hold when a shorter one on the same kit lies inside it', () => {
    const long = booking({ kitId: 1, startDate: '2025-11-24', testType: '3-day' });
    const inside = { ...booking({ kitId: 1, startDate: '2025-11-25' }), endDate: '2025-11-25' };
    const result = dailyAvailability(
      { kits: fleet, bookings: [inside, long], patients },
      { from: '2025-11-23', days: 6, today: '2025-11-23' },
    );
    // Kit 1 held 11-24..11-27 (3-day + maintenance); the inner booking adds nothing.
    expect(result.map((d) => d.availableUnits)).toEqual([3, 2, 2, 2, 2, 3]);
  });

  it('spans the US daylight-saving change without losing or repeating a day', () => {
    const result = dailyAvailability(
      {
        kits: fleet,
        bookings: [booking({ kitId: 1, startDate: '2025-03-06', testType: '3-day' })],
        patients,
      },
      { from: '2025-03-07', days: 5, today: '2025-03-07' },
    );
    expect(result.map((d) => d.date)).toEqual([
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
      '2025-03-10',
      '2025-03-11',
    ]);
    // Held Thu 03-06 to Sat 03-08, maintenance Sun 03-09; returned Mon 03-10.
    expect(result.map((d) => d.availableUnits)).toEqual([2, 2, 2, 3, 3]);
    expect(result[3]?.dropoffs.map((d) => d.kitId)).toEqual(['SOM-001']);
  });
});

describe('kitTypeAvailabilityByDate', () => {
  it('counts the kits of a type free for a test starting each day', () => {
    const bookings = [booking({ kitId: 1, startDate: '2025-11-24' })];
    const result = kitTypeAvailabilityByDate(
      'Somfit',
      kits,
      bookings,
      { from: '2025-11-20', days: 8 },
      '2-day',
    );
    // Kit 1 is held 11-24..11-26; a 2-day test holds start..start+2, so it cannot start 11-22..11-26.
    expect(result).toEqual([
      { date: '2025-11-20', available: 3 },
      { date: '2025-11-21', available: 3 },
      { date: '2025-11-22', available: 2 },
      { date: '2025-11-23', available: 2 },
      { date: '2025-11-24', available: 2 },
      { date: '2025-11-25', available: 2 },
      { date: '2025-11-26', available: 2 },
      { date: '2025-11-27', available: 3 },
    ]);
  });
});

// Hundreds of generated fleets per property: bounded by the number of runs, not by a clock, so a
// busy machine gets the time it needs.
describe('properties against the naive reference', { timeout: 60_000 }, () => {
  it('dailyAvailability equals naiveDailyAvailability', () => {
    fc.assert(
      fc.property(kitsArb, shuffledBookingsArb, patientsArb, rangeArb, (fleet, bookings, patients, range) => {
        const data = { kits: fleet, bookings, patients };
        expect(dailyAvailability(data, range)).toEqual(naiveDailyAvailability(data, range));
      }),
      { numRuns: 400 },
    );
  });

  it('availableKitsOfType equals naiveAvailableKitsOfType', () => {
    fc.assert(
      fc.property(
        kitTypeArb,
        kitsArb,
        shuffledBookingsArb,
        dateNear(),
        testTypeArb,
        (kitType, fleet, bookings, start, testType) => {
          expect(availableKitsOfType(kitType, fleet, bookings, start, testType)).toEqual(
            naiveAvailableKitsOfType(kitType, fleet, bookings, start, testType),
          );
        },
      ),
      { numRuns: 600 },
    );
  });

  it('kitTypeAvailabilityByDate counts what availableKitsOfType returns on each day', () => {
    fc.assert(
      fc.property(
        kitTypeArb,
        kitsArb,
        shuffledBookingsArb,
        rangeArb,
        testTypeArb,
        (kitType, fleet, bookings, range, testType) => {
          const counts = kitTypeAvailabilityByDate(kitType, fleet, bookings, range, testType);
          expect(counts.map((c) => c.date)).toEqual(
            Array.from({ length: range.days }, (_, d) => addDays(range.from, d)),
          );
          for (const { date, available } of counts) {
            expect(available).toBe(availableKitsOfType(kitType, fleet, bookings, date, testType).length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every kit availableKitsOfType returns can be booked at once without overlapping held windows', () => {
    fc.assert(
      fc.property(
        kitTypeArb,
        kitsArb,
        shuffledBookingsArb,
        dateNear(),
        testTypeArb,
        (kitType, fleet, bookings, start, testType) => {
          const offered = availableKitsOfType(kitType, fleet, bookings, start, testType);
          let id = bookings.length + 1;
          const added = offered.map(
            (kit): Booking => ({
              id: id++,
              patientId: 1,
              kitId: kit.id,
              testType,
              kitType,
              status: 'confirmed',
              notes: null,
              ...testDates(start, testType),
            }),
          );
          const all = [...bookings, ...added];
          for (const mine of added) {
            expect(isKitFree(mine.kitId as number, bookings, start, testType)).toBe(true);
            const window = heldWindow(mine);
            for (const other of all) {
              if (other === mine || other.kitId !== mine.kitId || !isHoldingStatus(other.status)) continue;
              if (other.startDate > other.endDate) continue;
              const held = heldWindow(other);
              expect(held.to < window.from || held.from > window.to).toBe(true);
            }
          }
          // Once booked, none of them is offered again for the same test.
          const offeredAgain = availableKitsOfType(kitType, fleet, all, start, testType);
          expect(offeredAgain).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });
});
