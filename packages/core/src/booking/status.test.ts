import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '../enums.js';
import { canTransitionBooking, isExtendable, isReducible } from './status.js';

describe('booking status transitions (DESIGN.md §2)', () => {
  it('allows exactly the documented moves', () => {
    const allowed = BOOKING_STATUSES.flatMap((from) =>
      BOOKING_STATUSES.filter((to) => canTransitionBooking(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed).toEqual([
      'pending->confirmed',
      'pending->cancelled',
      'confirmed->picked_up',
      'confirmed->cancelled',
      'picked_up->completed',
    ]);
  });

  it('offers extend for confirmed 2-day and reduce for confirmed 3-day only', () => {
    expect(isExtendable({ testType: '2-day', status: 'confirmed' })).toBe(true);
    expect(isExtendable({ testType: '2-day', status: 'pending' })).toBe(false);
    expect(isExtendable({ testType: '3-day', status: 'confirmed' })).toBe(false);
    expect(isReducible({ testType: '3-day', status: 'confirmed' })).toBe(true);
    expect(isReducible({ testType: '3-day', status: 'picked_up' })).toBe(false);
    expect(isReducible({ testType: '2-day', status: 'confirmed' })).toBe(false);
  });
});
