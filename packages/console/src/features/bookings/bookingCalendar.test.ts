import type { Booking, Kit } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import {
  availabilityLevel,
  availableTypes,
  freeKitsByDate,
  freeKitsPerType,
  isSelectableStartDate,
  monthWeeks,
  shiftMonth,
} from './bookingCalendar';

const kits: Kit[] = [
  { id: 1, kitId: 'SOM-001', type: 'Somfit' },
  { id: 2, kitId: 'SOM-002', type: 'Somfit' },
  { id: 3, kitId: 'ZM-001', type: 'Z-Machine' },
];
// Kit 1 is out Mon Nov 24 - Tue Nov 25 (maintenance Wed Nov 26).
const bookings: Booking[] = [
  {
    id: 10,
    patientId: 1,
    kitId: 1,
    testType: '2-day',
    kitType: 'Somfit',
    status: 'confirmed',
    startDate: '2025-11-24',
    endDate: '2025-11-25',
    returnDate: '2025-11-26',
    notes: null,
  },
];

describe('availabilityLevel', () => {
  it('is green from two free kits, amber with one, plain with none', () => {
    expect(availabilityLevel(5)).toBe('available');
    expect(availabilityLevel(2)).toBe('available');
    expect(availabilityLevel(1)).toBe('limited');
    expect(availabilityLevel(0)).toBe('unavailable');
  });
});

describe('isSelectableStartDate', () => {
  it('allows today or later, Monday to Thursday only', () => {
    expect(isSelectableStartDate('2025-11-26', '2025-11-24', '2-day')).toBe(true); // Wednesday
    expect(isSelectableStartDate('2025-11-21', '2025-11-24', '2-day')).toBe(false); // past
    expect(isSelectableStartDate('2025-11-28', '2025-11-24', '2-day')).toBe(false); // Friday
    expect(isSelectableStartDate('2025-11-30', '2025-11-24', '3-day')).toBe(false); // Sunday
  });
});

describe('month grid', () => {
  it('lays a month out in Sunday-first weeks', () => {
    const weeks = monthWeeks('2025-11-01');
    expect(weeks).toHaveLength(6);
    expect(weeks[0]?.slice(0, 7)).toEqual([null, null, null, null, null, null, '2025-11-01']);
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
  });

  it('moves between months across years', () => {
    expect(shiftMonth('2025-12-01', 1)).toBe('2026-01-01');
    expect(shiftMonth('2025-01-01', -1)).toBe('2024-12-01');
  });
});

describe('free kits', () => {
  it('counts free kits per type for a start date', () => {
    const counts = freeKitsPerType(kits, bookings, '2025-11-25', '2-day');
    expect(counts).toEqual({ Somfit: 1, 'Z-Machine': 1, SleepView: 0 });
    expect(availableTypes(counts)).toEqual(['Somfit', 'Z-Machine']);
    expect(freeKitsPerType(kits, bookings, null, '2-day').Somfit).toBe(0);
  });

  it('counts the chosen type, or every type, per day of the month', () => {
    const somfit = freeKitsByDate('2025-11-01', kits, bookings, '2-day', 'Somfit');
    expect(somfit.get('2025-11-24')).toBe(1);
    expect(somfit.get('2025-11-27')).toBe(2);
    expect(freeKitsByDate('2025-11-01', kits, bookings, '2-day', null).get('2025-11-24')).toBe(2);
  });
});
