import fc from 'fast-check';
import { fromDayNumber, toDayNumber } from '../dates/calendar.js';
import { testDates } from '../dates/testDates.js';
import { BOOKING_STATUSES, KIT_STATUSES, KIT_TYPES, TEST_TYPES } from '../enums.js';
import type { Booking, Kit } from '../schemas/booking.js';
import type { Patient } from '../schemas/patient.js';

// fast-check generators for availability properties: small fleets and busy calendars around a
// month end. Some bookings name a kit that does not exist or no kit; about half have an arbitrary
// end date (shorter, longer, or before the start) so that holds nest and overlap in every way.

/** Day number of 2025-02-24: generated dates straddle the end of February. */
export const BASE_DAY = toDayNumber('2025-02-24');

export const dateNear = (spread = 25): fc.Arbitrary<string> =>
  fc.integer({ min: -5, max: spread }).map((offset) => fromDayNumber(BASE_DAY + offset));

export const kitTypeArb = fc.constantFrom(...KIT_TYPES);
export const testTypeArb = fc.constantFrom(...TEST_TYPES);

export const kitsArb: fc.Arbitrary<Kit[]> = fc
  .integer({ min: 0, max: 12 })
  .chain((n) => fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: n, maxLength: n }))
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({
          id: fc.constant(id),
          kitId: fc.constant(`KIT-${String(id).padStart(3, '0')}`),
          type: kitTypeArb,
          status: fc.option(fc.constantFrom(...KIT_STATUSES), { nil: undefined }),
        }),
      ),
    ),
  )
  .map((kits) =>
    kits.map((k): Kit => (k.status === undefined ? { id: k.id, kitId: k.kitId, type: k.type } : k)),
  );

export const patientsArb: fc.Arbitrary<Patient[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 12, size: 'max' })
  .map((ids) =>
    ids.map((id) => ({
      id,
      name: `Patient ${id}`,
      email: `p${id}@example.test`,
      phone: '555-0100',
      leadSource: 'Direct' as const,
    })),
  );

/** Bookings on kit ids 1..14 (so some name kits that do not exist), or on no kit. */
export const bookingsArb: fc.Arbitrary<Booking[]> = fc
  .array(
    fc.record({
      patientId: fc.integer({ min: 1, max: 14 }),
      kitId: fc.option(fc.integer({ min: 1, max: 14 }), { nil: null, freq: 12 }),
      testType: testTypeArb,
      kitType: kitTypeArb,
      status: fc.constantFrom(...BOOKING_STATUSES),
      startDate: dateNear(),
      // null: the end date the rules give; otherwise start + endShift, which may precede the start.
      endShift: fc.option(fc.integer({ min: -3, max: 4 }), { nil: null, freq: 3 }),
      notes: fc.constant(null),
    }),
    { maxLength: 60, size: 'max' },
  )
  .map((rows) =>
    rows.map(({ endShift, ...row }, i): Booking => {
      const dates = testDates(row.startDate, row.testType);
      const endDate =
        endShift === null ? dates.endDate : fromDayNumber(toDayNumber(row.startDate) + endShift);
      return { id: i + 1, ...row, endDate, returnDate: endShift === null ? dates.returnDate : endDate };
    }),
  );

/** A booking list in shuffled order, so nothing relies on bookings arriving sorted. */
export const shuffledBookingsArb: fc.Arbitrary<Booking[]> = bookingsArb.chain((bookings) =>
  fc.shuffledSubarray(bookings, { minLength: bookings.length, maxLength: bookings.length }),
);

export const rangeArb = fc.record({
  from: dateNear(15),
  days: fc.integer({ min: 0, max: 21 }),
  today: dateNear(),
});
