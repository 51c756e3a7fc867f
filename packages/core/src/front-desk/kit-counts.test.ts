import { describe, expect, it } from 'vitest';
import { type CountedHold, type CountedKit, kitCounts } from './kit-counts.js';

// Hand-made fleets: each count can be checked by eye.
const TODAY = '2026-11-26';

describe('kitCounts', () => {
  const kits: CountedKit[] = [
    { id: 1, type: 'Somfit', status: 'available' }, // free, on the shelf
    { id: 2, type: 'Somfit', status: 'in_use' }, // out with a patient, held today
    { id: 3, type: 'Somfit', status: 'available' }, // on the shelf, but picked up today: held
    { id: 4, type: 'Somfit', status: 'cleaning' }, // back yesterday, its maintenance day is today: held
    { id: 5, type: 'Z-Machine', status: 'maintenance' }, // out of service
    { id: 6, type: 'Z-Machine', status: 'available' }, // booked from tomorrow: free today
    { id: 7, type: 'SleepView', status: 'retired' },
  ];
  const holds: CountedHold[] = [
    { kitId: 2, status: 'picked_up', startDate: '2026-11-24', endDate: '2026-11-26' },
    { kitId: 3, status: 'confirmed', startDate: TODAY, endDate: '2026-11-27' },
    { kitId: 4, status: 'completed', startDate: '2026-11-23', endDate: '2026-11-24' }, // completed holds nothing
    { kitId: 4, status: 'picked_up', startDate: '2026-11-24', endDate: '2026-11-25' }, // maintenance day today
    { kitId: 6, status: 'confirmed', startDate: '2026-11-27', endDate: '2026-11-28' },
    { kitId: 1, status: 'cancelled', startDate: TODAY, endDate: '2026-11-27' },
  ];

  it('counts free-to-book-today and on-the-shelf separately, per type and in all', () => {
    const { all, byType } = kitCounts(kits, holds, TODAY);
    expect(byType.Somfit).toEqual({
      total: 4,
      inService: 4,
      freeToday: 1,
      heldToday: 3,
      onShelf: 2,
      withPatients: 1,
    });
    expect(byType['Z-Machine']).toEqual({
      total: 2,
      inService: 1,
      freeToday: 1,
      heldToday: 0,
      onShelf: 1,
      withPatients: 0,
    });
    expect(byType.SleepView).toEqual({
      total: 1,
      inService: 0,
      freeToday: 0,
      heldToday: 0,
      onShelf: 0,
      withPatients: 0,
    });
    expect(all).toEqual({ total: 7, inService: 5, freeToday: 2, heldToday: 3, onShelf: 3, withPatients: 1 });
  });

  it('free plus held is every kit in service; the types add up to the whole', () => {
    const { all, byType } = kitCounts(kits, holds, '2026-11-28');
    expect(all.freeToday + all.heldToday).toBe(all.inService);
    const sum = (key: keyof typeof all) => Object.values(byType).reduce((n, c) => n + c[key], 0);
    for (const key of Object.keys(all) as (keyof typeof all)[]) expect(sum(key)).toBe(all[key]);
  });

  it('an empty fleet counts zero everywhere', () => {
    expect(kitCounts([], [], TODAY).all).toEqual({
      total: 0,
      inService: 0,
      freeToday: 0,
      heldToday: 0,
      onShelf: 0,
      withPatients: 0,
    });
  });
});
