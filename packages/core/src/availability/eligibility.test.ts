import { describe, expect, it } from 'vitest';
import { testDates } from '../dates/testDates.js';
import { messages } from '../messages.js';
import { ExtensionEligibility, ReductionEligibility } from '../schemas/availability.js';
import type { Booking, Kit } from '../schemas/booking.js';
import { extensionEligibility, reductionEligibility } from './eligibility.js';

const kits: Kit[] = [
  { id: 1, kitId: 'SOM-001', type: 'Somfit' },
  { id: 2, kitId: 'SOM-002', type: 'Somfit' },
  { id: 3, kitId: 'SOM-003', type: 'Somfit', status: 'maintenance' },
  { id: 4, kitId: 'ZM-004', type: 'Z-Machine' },
];

function booking(
  id: number,
  kitId: number | null,
  startDate: string,
  fields: Partial<Booking> = {},
): Booking {
  const testType = fields.testType ?? '2-day';
  return {
    id,
    patientId: 1,
    kitId,
    kitType: 'Somfit',
    status: 'confirmed',
    notes: null,
    ...testDates(startDate, testType),
    ...fields,
    testType,
  };
}

// The booking under test: kit 1, Mon 2025-11-24 to Tue 11-25, maintenance Wed 11-26.
// Extended to 3 days it would hold kit 1 until Thu 11-27.
const mine = booking(1, 1, '2025-11-24');

describe('extensionEligibility', () => {
  it('keeps the same kit when it stays free for the 3-day window', () => {
    const result = extensionEligibility(mine, kits, [mine]);
    expect(result).toEqual({
      canExtend: true,
      requiresKitSwap: false,
      reason: null,
      swapWarning: null,
      availableKitsCount: 2,
      kitType: 'Somfit',
      targetKitId: 1,
    });
    expect(ExtensionEligibility.parse(result)).toEqual(result);
  });

  it('ignores the booking itself but not a later booking of the same kit', () => {
    // Kit 1 is booked again from Thu 11-27: the extra maintenance day clashes.
    const next = booking(2, 1, '2025-11-27');
    const result = extensionEligibility(mine, kits, [mine, next]);
    expect(result).toMatchObject({
      canExtend: true,
      requiresKitSwap: true,
      reason: null,
      availableKitsCount: 1,
      targetKitId: 2,
    });
    expect(result.swapWarning).toBe(messages.extension.swapWarning('SOM-001', 'SOM-002'));
    expect(result.swapWarning).toContain('SOM-001');
    expect(result.swapWarning).toContain('SOM-002');
  });

  it('cannot extend when no kit of the type is free (kits in maintenance do not count)', () => {
    const result = extensionEligibility(mine, kits, [
      mine,
      booking(2, 1, '2025-11-27'),
      booking(3, 2, '2025-11-25'),
    ]);
    expect(result).toEqual({
      canExtend: false,
      requiresKitSwap: false,
      reason: messages.extension.noKitAvailable('Somfit'),
      swapWarning: null,
      availableKitsCount: 0,
      kitType: 'Somfit',
      targetKitId: null,
    });
  });

  it('is offered only for confirmed 2-day tests', () => {
    expect(
      extensionEligibility({ ...mine, ...testDates(mine.startDate, '3-day'), testType: '3-day' }, kits, []),
    ).toMatchObject({
      canExtend: false,
      reason: messages.extension.onlyTwoDay,
    });
    for (const status of ['pending', 'picked_up', 'completed', 'cancelled'] as const) {
      expect(extensionEligibility({ ...mine, status }, kits, [])).toMatchObject({
        canExtend: false,
        reason: messages.extension.onlyConfirmed,
      });
    }
  });

  it('gives a booking without a kit the first free kit, with nothing to swap', () => {
    const unassigned = booking(9, null, '2025-11-24');
    expect(extensionEligibility(unassigned, kits, [unassigned, booking(2, 1, '2025-11-27')])).toMatchObject({
      canExtend: true,
      requiresKitSwap: false,
      swapWarning: null,
      targetKitId: 2,
      availableKitsCount: 1,
    });
  });

  it('extends across the year end', () => {
    const yearEnd = booking(5, 4, '2025-12-31', { kitType: 'Z-Machine' });
    // 3-day from Wed 12-31 holds until Sat 2026-01-03; a booking from Fri 01-02 clashes.
    expect(
      extensionEligibility(yearEnd, kits, [yearEnd, booking(6, 4, '2026-01-03', { kitType: 'Z-Machine' })]),
    ).toMatchObject({ canExtend: false, kitType: 'Z-Machine' });
    expect(
      extensionEligibility(yearEnd, kits, [yearEnd, booking(6, 4, '2026-01-04', { kitType: 'Z-Machine' })]),
    ).toMatchObject({ canExtend: true, requiresKitSwap: false, targetKitId: 4 });
  });
});

describe('reductionEligibility', () => {
  const threeDay = booking(7, 2, '2025-11-24', { testType: '3-day' });

  it('frees the kit of a confirmed 3-day test one day earlier, saying the day it comes back', () => {
    const result = reductionEligibility(threeDay, kits);
    // Monday Nov 24: the 3-day test's kit came back Thursday the 27th, the 2-day test's Wednesday the 26th.
    expect(result.message).toBe(
      'The test will be reduced to 2 days. Kit SOM-002 now comes back on Nov 26, 2025 instead of Nov 27, 2025.',
    );
    expect(result).toEqual({
      canReduce: true,
      message: messages.reduction.canReduce('SOM-002', 'Nov 26, 2025', 'Nov 27, 2025'),
      kitToFree: { id: 2, kitId: 'SOM-002', type: 'Somfit' },
    });
    expect(ReductionEligibility.parse(result)).toEqual(result);
  });

  it('is offered only for confirmed 3-day tests', () => {
    expect(reductionEligibility(mine, kits)).toEqual({
      canReduce: false,
      message: messages.reduction.onlyThreeDay,
      kitToFree: null,
    });
    expect(reductionEligibility({ ...threeDay, status: 'picked_up' }, kits)).toEqual({
      canReduce: false,
      message: messages.reduction.onlyConfirmed,
      kitToFree: null,
    });
  });

  it('still allows the reduction when the booking has no kit, with nothing to free', () => {
    expect(reductionEligibility({ ...threeDay, kitId: null }, kits)).toEqual({
      canReduce: true,
      message: messages.reduction.canReduce('Unknown Kit', 'Nov 26, 2025', 'Nov 27, 2025'),
      kitToFree: null,
    });
  });
});
