import { describe, expect, it } from 'vitest';
import {
  availableUnitsByDay,
  type DailyBooking,
  type DailyKit,
  eventsByDay,
  isStartableDay,
  shiftAnchor,
  visibleRange,
} from './calendarModel';

const booking = (fields: Partial<DailyBooking> & Pick<DailyBooking, 'id' | 'startDate'>): DailyBooking => ({
  patientId: 1,
  kitId: 1,
  testType: '2-day',
  kitType: 'Somfit',
  status: 'confirmed',
  endDate: fields.endDate ?? fields.startDate,
  returnDate: fields.returnDate ?? fields.startDate,
  ...fields,
});

describe('calendar model', () => {
  it('shows whole weeks, Sunday first, for a month and for a week', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    expect(visibleRange('month', '2026-11-18')).toEqual({ from: '2026-11-01', to: '2026-12-05' });
    expect(visibleRange('week', '2026-11-18')).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(shiftAnchor('month', '2026-11-18', 1)).toBe('2026-12-01');
    expect(shiftAnchor('week', '2026-11-18', -1)).toBe('2026-11-11');
  });

  it('puts pickups, test nights and returns on their days, and leaves out cancelled bookings', () => {
    const events = eventsByDay(
      [
        booking({ id: 1, startDate: '2026-11-18', endDate: '2026-11-19', returnDate: '2026-11-20' }),
        booking({
          id: 2,
          startDate: '2026-11-18',
          endDate: '2026-11-19',
          returnDate: '2026-11-20',
          status: 'cancelled',
        }),
        booking({
          id: 3,
          startDate: '2026-11-16',
          endDate: '2026-11-17',
          returnDate: '2026-11-18',
          kitType: 'SleepView',
        }),
      ],
      '2026-11-15',
      '2026-11-21',
    );
    expect(events.get('2026-11-18')?.map((e) => `${e.kind}:${e.booking.id}`)).toEqual([
      'pickup:1',
      'return:3',
      'night:1',
    ]);
    expect(events.get('2026-11-19')?.map((e) => `${e.kind}:${e.booking.id}`)).toEqual(['night:1']);
    expect(events.get('2026-11-20')?.map((e) => `${e.kind}:${e.booking.id}`)).toEqual(['return:1']);
  });

  it('counts free units per kit type and day, holding the maintenance day and skipping kits out of service', () => {
    const kits: DailyKit[] = [
      { id: 1, kitId: 'SOM-1', type: 'Somfit', status: 'available' },
      { id: 2, kitId: 'SOM-2', type: 'Somfit', status: 'available' },
      { id: 3, kitId: 'SOM-3', type: 'Somfit', status: 'maintenance' },
      { id: 4, kitId: 'ZM-1', type: 'Z-Machine', status: 'available' },
    ];
    const units = availableUnitsByDay(
      kits,
      [
        booking({
          id: 1,
          kitId: 1,
          startDate: '2026-11-18',
          endDate: '2026-11-19',
          returnDate: '2026-11-20',
        }),
      ],
      '2026-11-17',
      '2026-11-21',
      '2026-11-17',
    );
    expect(units.get('2026-11-17')).toEqual({ Somfit: 2, 'Z-Machine': 1, SleepView: 0 });
    expect(units.get('2026-11-18')?.Somfit).toBe(1);
    expect(units.get('2026-11-20')?.Somfit).toBe(1);
    expect(units.get('2026-11-21')?.Somfit).toBe(2);
  });

  it('lets a test start only on a valid start day, never in the past or at the weekend', () => {
    expect(isStartableDay('2026-11-18', '2026-11-16')).toBe(true);
    expect(isStartableDay('2026-11-21', '2026-11-16')).toBe(false);
    expect(isStartableDay('2026-11-20', '2026-11-16')).toBe(false);
    expect(isStartableDay('2026-11-11', '2026-11-16')).toBe(false);
  });
});
