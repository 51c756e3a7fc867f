import type { BookingRow } from './queries';

export const BOOKING_SORT_FIELDS = ['patientName', 'startDate', 'returnDate', 'kitType', 'status'] as const;
export type BookingSortField = (typeof BOOKING_SORT_FIELDS)[number];
export interface BookingSort {
  field: BookingSortField;
  direction: 'asc' | 'desc';
}

/** Bookings ordered by one column, ties broken by start date and then id so the order is stable. */
export function sortBookings(bookings: readonly BookingRow[], sort: BookingSort): BookingRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const text = (b: BookingRow) => String(b[sort.field] ?? '');
  return [...bookings].sort(
    (a, b) => sign * text(a).localeCompare(text(b)) || a.startDate.localeCompare(b.startDate) || a.id - b.id,
  );
}

/** Clicking a column sorts by it ascending; clicking it again flips the direction. */
export function nextSort(current: BookingSort, field: BookingSortField): BookingSort {
  if (current.field !== field) return { field, direction: 'asc' };
  return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}
