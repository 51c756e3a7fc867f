import { describe, expect, it } from 'vitest';
import { canSignAgreement, patientAnchorHref, todaysBookings, visibleItems } from './dashboardData';

describe('visibleItems', () => {
  it('shows the first two and counts the rest', () => {
    expect(visibleItems(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b'], hidden: 3 });
    expect(visibleItems(['a', 'b'])).toEqual({ shown: ['a', 'b'], hidden: 0 });
    expect(visibleItems([])).toEqual({ shown: [], hidden: 0 });
  });
});

describe('todaysBookings', () => {
  it('keeps bookings starting today, earliest first, ties by id', () => {
    const bookings = [
      { id: 4, startDate: '2025-11-24' },
      { id: 3, startDate: '2025-11-25' },
      { id: 2, startDate: '2025-11-24T08:00:00Z' },
      { id: 1, startDate: '2025-11-24' },
      { id: 5, startDate: 'not a date' },
    ];
    expect(todaysBookings(bookings, '2025-11-24').map((b) => b.id)).toEqual([1, 4, 2]);
  });
});

describe('canSignAgreement', () => {
  it('is offered only for a confirmed pickup today', () => {
    expect(canSignAgreement({ status: 'confirmed' }, '2025-11-24', '2025-11-24')).toBe(true);
    expect(canSignAgreement({ status: 'pending' }, '2025-11-24', '2025-11-24')).toBe(false);
    expect(canSignAgreement({ status: 'confirmed' }, '2025-11-25', '2025-11-24')).toBe(false);
  });
});

it('links a patient to their anchor in the patients list', () => {
  expect(patientAnchorHref(12)).toBe('/patients#patient-12');
});
