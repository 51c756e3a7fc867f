import { describe, expect, it } from 'vitest';
import { kitUtilisation, type UtilisationBooking, type UtilisationKit } from './kit-utilisation.js';

// Hand-made fleets over a 10-day period, Nov 1 to Nov 10: every number can be counted by hand.
const PERIOD = { from: '2026-11-01', to: '2026-11-10' };

describe('kitUtilisation', () => {
  const kits: UtilisationKit[] = [
    { id: 1, type: 'Somfit', inServiceFrom: '2026-01-01', retiredOn: null }, // all 10 days
    { id: 2, type: 'Somfit', inServiceFrom: '2026-01-01', retiredOn: null }, // never booked
    { id: 3, type: 'Somfit', inServiceFrom: '2026-11-06', retiredOn: null }, // added on the 6th: 5 days
    { id: 4, type: 'Z-Machine', inServiceFrom: '2026-01-01', retiredOn: '2026-11-05' }, // retired on the 5th: 4 days
    { id: 5, type: 'SleepView', inServiceFrom: '2026-12-01', retiredOn: null }, // not yet in service
  ];
  const bookings: UtilisationBooking[] = [
    // Kit 1: a 2-day test Nov 2-3 held Nov 2, 3 and the maintenance day 4: 3 days.
    { kitId: 1, status: 'completed', startDate: '2026-11-02', endDate: '2026-11-03' },
    // A 3-day test Oct 30 - Nov 1: its days inside the period are Nov 1 and the maintenance day Nov 2
    // (Nov 2 already counted).
    { kitId: 1, status: 'completed', startDate: '2026-10-30', endDate: '2026-11-01' },
    // Nov 9-10 plus maintenance on the 11th, outside the period: 2 days.
    { kitId: 1, status: 'confirmed', startDate: '2026-11-09', endDate: '2026-11-10' },
    // Cancelled: holds nothing.
    { kitId: 2, status: 'cancelled', startDate: '2026-11-05', endDate: '2026-11-06' },
    // Kit 3: Nov 6-7 + 8: 3 days of its 5.
    { kitId: 3, status: 'picked_up', startDate: '2026-11-06', endDate: '2026-11-07' },
    // Kit 4: Nov 3-4 + maintenance day 5, but retired on the 5th: 2 days of its 4.
    { kitId: 4, status: 'completed', startDate: '2026-11-03', endDate: '2026-11-04' },
  ];
  const result = kitUtilisation(kits, bookings, PERIOD);

  it('per kit: held kit-days over in-service kit-days', () => {
    expect(result.byKit.get(1)).toEqual({ inServiceDays: 10, heldDays: 6, utilisation: 0.6 });
    expect(result.byKit.get(2)).toEqual({ inServiceDays: 10, heldDays: 0, utilisation: 0 });
    expect(result.byKit.get(3)).toEqual({ inServiceDays: 5, heldDays: 3, utilisation: 0.6 });
    expect(result.byKit.get(4)).toEqual({ inServiceDays: 4, heldDays: 2, utilisation: 0.5 });
    expect(result.byKit.get(5)).toEqual({ inServiceDays: 0, heldDays: 0, utilisation: null });
  });

  it('per type: summed kit-days, not an average of percentages; kits out of service are not counted', () => {
    expect(result.byType.get('Somfit')).toEqual({
      kits: 3,
      inServiceDays: 25,
      heldDays: 9,
      utilisation: 9 / 25,
    });
    expect(result.byType.get('Z-Machine')).toEqual({
      kits: 1,
      inServiceDays: 4,
      heldDays: 2,
      utilisation: 0.5,
    });
    expect(result.byType.has('SleepView')).toBe(false);
  });

  it('a kit never booked is in service for the whole period, not one day', () => {
    const idle = kitUtilisation(
      [{ id: 9, type: 'Somfit', inServiceFrom: '2025-06-01', retiredOn: null }],
      [],
      PERIOD,
    );
    expect(idle.byKit.get(9)).toEqual({ inServiceDays: 10, heldDays: 0, utilisation: 0 });
  });

  it('the kit count of a type does not change with the period when the fleet does not', () => {
    const fleet = kits.slice(0, 2);
    for (const period of [
      PERIOD,
      { from: '2026-06-01', to: '2026-06-30' },
      { from: '2026-11-10', to: '2026-11-10' },
    ]) {
      expect(kitUtilisation(fleet, bookings, period).byType.get('Somfit')?.kits).toBe(2);
    }
  });
});
